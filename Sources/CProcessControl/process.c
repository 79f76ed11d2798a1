#include "CProcessControl.h"

#include <errno.h>
#include <sys/prctl.h>

int cprocess_forbid_dumping(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -errno;
}
