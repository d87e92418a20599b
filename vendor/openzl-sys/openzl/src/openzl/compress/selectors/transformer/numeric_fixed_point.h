// Copyright (c) Meta Platforms, Inc. and affiliates.

#ifndef OPENZL_COMPRESS_SELECTORS_TRANSFORMER_NUMERIC_FIXED_POINT_H
#define OPENZL_COMPRESS_SELECTORS_TRANSFORMER_NUMERIC_FIXED_POINT_H

#include <stdint.h>

/* Scale for Q32 values in the trained Transformer numeric feature contract. */
#define TRS_NUMERIC_Q32_SCALE (UINT64_C(1) << 32)

#endif /* OPENZL_COMPRESS_SELECTORS_TRANSFORMER_NUMERIC_FIXED_POINT_H */
