// Copyright (c) Meta Platforms, Inc. and affiliates.

#ifndef ZS_ENCODE_LZ_KERNEL_H
#define ZS_ENCODE_LZ_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "openzl/codecs/partition/common_partition.h"
#include "openzl/codecs/zl_lz.h"

#define ZL_LZ_LIT_OVER_LENGTH 32
#define ZL_LZ_MIN_MATCH 4
// All offsets must be strictly less than this.
#define ZL_LZ_MAX_OFFSET_U16 (1u << 16)
#define ZL_LZ_MAX_OFFSET_U32 ZL_PARTITION_MAX_PARTITION_SIZE_FOR_UNROLL2

typedef struct {
    uint8_t* literals;
    size_t literalsCapacity;
    size_t numLiterals;

    void* offsets;
    size_t offsetWidth;
    uint16_t* literalLengths;
    uint16_t* matchLengths;
    size_t sequencesCapacity;
    size_t numSequences;
} ZL_Lz_OutSequences;

typedef struct {
    ZL_LzStrategy strategy; //< Match finding algorithm to use
    uint32_t windowLog;     //< Log size of the history window
    uint32_t hashLog1;      //< Log size of the primary hash table
    uint32_t hashLog2;      //< Log size of the secondary hash table
    uint32_t hashLength;    //< Number of source bytes to hash in tables
    uint32_t acceleration;  //< Only search one in acceleration positions
    uint32_t searchLog;     //< Log2 candidates per search (row-table only)
} ZL_LzParameters;

/// @returns The default parameters for the @p level and @p srcSize.
ZL_LzParameters ZL_LzParameters_default(int level, size_t srcSize);

/**
 * Adjusts @p params to ensure that all parameters sized to compress data of
 * size @p srcSize.
 */
void ZL_LzParameters_adjust(ZL_LzParameters* params, size_t srcSize);

/**
 * Returns the maximum number of sequences that the encoder can produce
 * for an input of srcSize bytes.
 */
size_t ZL_Lz_maxNumSequences(size_t srcSize);

/// @returns The amount of scratch space the encoder needs.
/// @note This memory must be at least 4-byte aligned.
size_t ZL_Lz_scratchBytes(const ZL_LzParameters* params);

/**
 * Encodes src[0..srcSize) into LZ sequences.
 *
 * All output buffers in dst must be pre-allocated by the caller:
 *   - dst->literals: at least srcSize bytes
 *   - dst->offsets, dst->literalLengths, dst->matchLengths:
 *     at least ZL_Lz_maxNumSequences(srcSize) elements each
 *
 * dst->numLiterals and dst->numSequences are set to the number of
 * output literals and sequences respectively.
 *
 * @param scratch scratch space of size `ZL_Lz_scratchBytes(params)`
 */
void ZL_Lz_encode(
        ZL_Lz_OutSequences* dst,
        const uint8_t* src,
        size_t srcSize,
        void* scratch,
        const ZL_LzParameters* params);

#endif
