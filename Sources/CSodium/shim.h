#ifndef SECSTORE_CSODIUM_SHIM_H
#define SECSTORE_CSODIUM_SHIM_H

// The only C crypto SecStore uses. Swift reaches it through `Sources/SecStore/Crypto`
// and nowhere else.
#include <sodium.h>

#endif
