// sd-bus, libsystemd's D-Bus library, for the Secret Service provider (issue 17).
// Wrapped in one place: Sources/SecretService/Bus. Only the non-variadic calls import into
// Swift, so messages are read and written one basic value or container at a time.
#include <systemd/sd-bus.h>
