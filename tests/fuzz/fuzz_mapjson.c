/* libFuzzer harness: see fuzz_targets.h. */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return rmg_fuzz_map_json(data, size);
}
