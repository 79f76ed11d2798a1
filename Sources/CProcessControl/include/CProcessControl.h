#ifndef SECSTORE_CPROCESSCONTROL_H
#define SECSTORE_CPROCESSCONTROL_H

// prctl(2), which Swift cannot call (it is variadic), for the one setting SecStore's programs
// change: whether the process is dumpable. Each function returns -errno on failure.

/// prctl(PR_SET_DUMPABLE, 0): no core file, and no other process of the user may ptrace this
/// one or read its memory through /proc (its /proc entries become root's). execve(2) makes the
/// new program dumpable again.
int cprocess_forbid_dumping(void);

#endif
