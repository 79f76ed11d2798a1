// The libFuzzer entry of one fuzz target: scripts/fuzz.sh compiles this file once per target
// with -DFUZZ_TARGET=<target with underscores> and links it with the Swift objects that define
// secstore_fuzz_<target> and secstore_fuzz_seeds_<target> (Tests/SecStoreFuzzing,
// Tests/FuzzReplayTests/CLIArgumentsFuzz.swift).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define CONCAT(a, b) a##b
#define ENTRY(target) CONCAT(secstore_fuzz_, target)
#define SEEDS(target) CONCAT(secstore_fuzz_seeds_, target)

int ENTRY(FUZZ_TARGET)(const uint8_t *data, size_t size);
int SEEDS(FUZZ_TARGET)(const char *directory);

// SECSTORE_FUZZ_WRITE_SEEDS=DIR: write the target's seed corpus into DIR and exit
// (scripts/fuzz.sh seeds), instead of fuzzing.
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *directory = getenv("SECSTORE_FUZZ_WRITE_SEEDS");
    if (directory != NULL && directory[0] != '\0') exit(SEEDS(FUZZ_TARGET)(directory));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return ENTRY(FUZZ_TARGET)(data, size);
}
