// Copyright (c) Meta Platforms, Inc. and affiliates.

#include "openzl/codecs/entropy/encode_entropy_binding.h"

#define FSE_STATIC_LINKING_ONLY
#define HUF_STATIC_LINKING_ONLY

#include "openzl/codecs/constant/encode_constant_binding.h"
#include "openzl/codecs/entropy/deprecated/common_entropy.h"
#include "openzl/codecs/entropy/encode_entropy_selector.h"
#include "openzl/codecs/entropy/encode_huffman_kernel.h"
#include "openzl/common/assertion.h"
#include "openzl/compress/private_nodes.h"
#include "openzl/fse/fse.h"
#include "openzl/fse/huf.h"
#include "openzl/shared/data_stats.h"
#include "openzl/shared/histogram.h"
#include "openzl/shared/mem.h" // writeLE32
#include "openzl/shared/varint.h"
#include "openzl/zl_compress.h"
#include "openzl/zl_ctransform.h"
#include "openzl/zl_data.h"
#include "openzl/zl_graph_api.h"

typedef const HUF_CElt* HufCTable;
ZL_RESULT_DECLARE_TYPE(HufCTable);

static ZL_Histogram const* getHistogram(ZL_Encoder* eictx, const ZL_Input* in)
{
    ZL_RefParam param = ZL_Encoder_getLocalParam(eictx, ENTROPY_HISTORAM_PID);
    if (param.paramRef != NULL) {
        return (ZL_Histogram const*)param.paramRef;
    }
    size_t const eltWidth = ZL_Input_eltWidth(in);
    if (eltWidth > 2) {
        return NULL;
    }
    ZL_Histogram* histogram = (ZL_Histogram*)ZL_Encoder_getScratchSpace(
            eictx,
            eltWidth == 1 ? sizeof(ZL_Histogram8) : sizeof(ZL_Histogram16));
    if (histogram == NULL) {
        return NULL;
    }
    ZL_Histogram_init(histogram, eltWidth == 1 ? 255 : 65535);
    ZL_Histogram_build(
            histogram, ZL_Input_ptr(in), ZL_Input_numElts(in), eltWidth);
    return histogram;
}

static ZL_Report buildHufCTable(HUF_CElt* ctable, const ZL_Histogram* histogram)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(NULL);
    ZL_ASSERT_NE(histogram->maxSymbol, 0, "Must've already ruled out constant");
    size_t tableLog = HUF_optimalTableLog(
            HUF_TABLELOG_DEFAULT, histogram->total, histogram->maxSymbol);
    tableLog = HUF_buildCTable(
            ctable, histogram->count, histogram->maxSymbol, (unsigned)tableLog);
    ZL_ERR_IF(HUF_isError(tableLog), GENERIC);
    return ZL_returnSuccess();
}

static ZL_RESULT_OF(HufCTable)
        getHufCTable(ZL_Encoder* encoder, const ZL_Histogram* histogram)
{
    ZL_RESULT_DECLARE_SCOPE(HufCTable, encoder);
    ZL_RefParam param =
            ZL_Encoder_getLocalParam(encoder, ENTROPY_HUF_CTABLE_PID);
    if (param.paramRef != NULL) {
        return ZL_RESULT_WRAP_VALUE(HufCTable, param.paramRef);
    }

    HUF_CElt* ctable = ZL_Encoder_getScratchSpace(
            encoder, HUF_CTABLE_SIZE(histogram->maxSymbol));
    ZL_ERR_IF_NULL(ctable, allocation);
    ZL_ERR_IF_ERR(buildHufCTable(ctable, histogram));

    return ZL_RESULT_WRAP_VALUE(HufCTable, ctable);
}

static size_t estimateHuffmanSize(
        HufCTable ctable,
        const ZL_Histogram* histogram)
{
    const size_t symbolsSize = ZS_HUF_estimateCompressedSize(
            ctable, histogram->count, histogram->maxSymbol);

    // Account for Huffman header + jump table in X4 mode.
    size_t const headerSize = 1
            + (size_t)(ZL_nextPow2(histogram->total + 1) + 7) / 8
            + (histogram->total >= 256 ? 6 : 0);

    // TODO(T267366720): Update this code to match the new header cost when
    // switching away from bitpack. The old estimate was the minimum of
    // 4-bits per symbol or 5-bits per non-zero symbol. With bitpack it is
    // just 4-bits per symbol.
    const size_t tableBits = 4u * (histogram->maxSymbol + 1u);
    const size_t tableSize = (tableBits + 7u) / 8u;
    return headerSize + tableSize + symbolsSize;
}

static size_t estimateFseSize(DataStatsU8* stats)
{
    const double entropy = DataStatsU8_getEntropy(stats);
    const size_t symbolBits =
            (size_t)(entropy * (double)DataStatsU8_totalElements(stats));

    // Estimate header as 10-bits per non-zero symbol
    const size_t headerBits = 10 * DataStatsU8_getCardinality(stats);

    return (headerBits + symbolBits + 7) / 8;
}

ZL_Report EI_fse_v2(ZL_Encoder* eictx, const ZL_Input* ins[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(eictx);
    ZL_ASSERT_EQ(nbIns, 1);
    ZL_ASSERT_NN(ins);
    const ZL_Input* in = ins[0];
    ZL_ASSERT(ZL_Input_type(in) == ZL_Type_serial);
    uint8_t const* src            = ZL_Input_ptr(in);
    size_t const srcSize          = ZL_Input_numElts(in);
    ZL_Histogram const* histogram = getHistogram(eictx, in);

    ZL_ERR_IF_LT(
            srcSize,
            2,
            node_invalid_input,
            "Must not use FSE for 0 or 1 element (should be impossible for users to trigger)");
    ZL_ERR_IF_EQ(
            histogram->count[histogram->maxSymbol],
            histogram->total,
            node_invalid_input,
            "Must not use FSE on constant data (should be impossible for users to trigger)");

    // 1. Decide on number of states & send header
    unsigned const nbStates = srcSize < 1000 ? 2 : 4;
    {
        size_t const nbBytes = (size_t)(ZL_nextPow2(srcSize + 1) + 7) / 8;
        uint8_t header[sizeof(uint64_t) + 1];
        header[0] = (uint8_t)nbStates;
        ZL_writeLE64_N(header + 1, srcSize, nbBytes);
        ZL_ASSERT_EQ(ZL_readLE64_N(header + 1, nbBytes), srcSize);
        ZL_Encoder_sendCodecHeader(eictx, header, nbBytes + 1);
    }

    // 2. Build table
    FSE_CTable* ctable;
    {
        size_t const normSize = histogram->maxSymbol + 1;
        ZL_Output* const normStream =
                ZL_Encoder_createTypedStream(eictx, 0, normSize, 2);
        ZL_ERR_IF_NULL(normStream, allocation);
        int16_t* const normCount = ZL_Output_ptr(normStream);

        unsigned const tableLog = FSE_optimalTableLog(
                FSE_DEFAULT_TABLELOG, srcSize, histogram->maxSymbol);
        ctable = ZL_Encoder_getScratchSpace(
                eictx, FSE_CTABLE_SIZE(tableLog, histogram->maxSymbol));
        ZL_ERR_IF_NULL(ctable, allocation);

        ZL_ERR_IF(
                FSE_isError(FSE_normalizeCount(
                        normCount,
                        tableLog,
                        histogram->count,
                        srcSize,
                        histogram->maxSymbol,
                        true)),
                GENERIC);

        ZL_ERR_IF(
                FSE_isError(FSE_buildCTable(
                        ctable, normCount, histogram->maxSymbol, tableLog)),
                GENERIC);

        ZL_ERR_IF_ERR(ZL_Output_setIntMetadata(normStream, 0, (int)tableLog));
        ZL_ERR_IF_ERR(ZL_Output_commit(normStream, normSize));
    }

    // 3. Encode
    size_t const bitCapacity = FSE_compressBound(srcSize);
    ZL_Output* bitStream =
            ZL_Encoder_createTypedStream(eictx, 1, bitCapacity, 1);
    ZL_ERR_IF_NULL(bitStream, allocation);

    size_t const bitSize = FSE_compress_usingCTable(
            ZL_Output_ptr(bitStream),
            bitCapacity,
            src,
            srcSize,
            ctable,
            nbStates);
    ZL_ERR_IF(FSE_isError(bitSize), node_invalid_input);
    ZL_ERR_IF_EQ(
            bitSize,
            0,
            node_invalid_input,
            "FSE source is not compressible (should be impossible to trigger for user)");
    ZL_ERR_IF_ERR(ZL_Output_commit(bitStream, bitSize));

    return ZL_returnSuccess();
}

ZL_Report EI_fse_ncount(ZL_Encoder* eictx, const ZL_Input* ins[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(eictx);
    ZL_ASSERT_EQ(nbIns, 1);
    ZL_ASSERT_NN(ins);
    const ZL_Input* in = ins[0];
    ZL_ASSERT(ZL_Input_type(in) == ZL_Type_numeric);
    ZL_ERR_IF_NE(ZL_Input_eltWidth(in), 2, node_invalid_input);

    short const* const ncount = ZL_Input_ptr(in);
    size_t const nbCounts     = ZL_Input_numElts(in);

    ZL_ERR_IF_EQ(nbCounts, 0, node_invalid_input);
    ZL_ERR_IF_GT(nbCounts, 256, node_invalid_input);
    ZL_ERR_IF_EQ(ncount[nbCounts - 1], 0, node_invalid_input);

    bool invalid = false;
    uint64_t sum = 0;
    for (size_t i = 0; i < nbCounts; ++i) {
        sum += ncount[i] == -1 ? (uint64_t)1 : (uint64_t)ncount[i];
        invalid |= ncount[i] < -1;
    }
    ZL_ERR_IF(invalid, node_invalid_input, "Ncount must not be less than -1");
    ZL_ERR_IF_NOT(ZL_isPow2(sum), node_invalid_input);
    ZL_ERR_IF_EQ(sum, 0, node_invalid_input);
    unsigned const tableLog = (unsigned)ZL_highbit64(sum);

    ZL_ERR_IF_LT(tableLog, FSE_MIN_TABLELOG, node_invalid_input);
    ZL_ERR_IF_GT(tableLog, FSE_MAX_TABLELOG, node_invalid_input);

    ZL_Output* const dstStream =
            ZL_Encoder_createTypedStream(eictx, 0, FSE_NCOUNTBOUND, 1);
    ZL_ERR_IF_NULL(dstStream, allocation);

    size_t const ncountSize = FSE_writeNCount(
            ZL_Output_ptr(dstStream),
            FSE_NCOUNTBOUND,
            ncount,
            (unsigned)nbCounts - 1,
            tableLog);
    ZL_ERR_IF(
            FSE_isError(ncountSize),
            GENERIC,
            "%s",
            FSE_getErrorName(ncountSize));

    ZL_ERR_IF_ERR(ZL_Output_commit(dstStream, ncountSize));

    return ZL_returnSuccess();
}

ZL_Report EI_huffman_v2(ZL_Encoder* eictx, const ZL_Input* ins[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(eictx);
    ZL_ASSERT_EQ(nbIns, 1);
    ZL_ASSERT_NN(ins);
    const ZL_Input* in = ins[0];
    ZL_ASSERT(ZL_Input_type(in) == ZL_Type_serial);
    uint8_t const* src            = ZL_Input_ptr(in);
    size_t const srcSize          = ZL_Input_numElts(in);
    ZL_Histogram const* histogram = getHistogram(eictx, in);

    ZL_ERR_IF_LT(
            srcSize,
            2,
            node_invalid_input,
            "Must not use Huffman for 0 or 1 element (should be impossible for users to trigger)");
    ZL_ERR_IF_EQ(
            histogram->count[histogram->maxSymbol],
            histogram->total,
            node_invalid_input,
            "Must not use Huffman on constant data (should be impossible for users to trigger)");

    // 1. Build table
    ZL_TRY_LET(HufCTable, ctable, getHufCTable(eictx, histogram));
    {
        size_t const weightsSize = histogram->maxSymbol + 1;
        ZL_Output* const weightsStream =
                ZL_Encoder_createTypedStream(eictx, 0, weightsSize, 1);
        ZL_ERR_IF_NULL(weightsStream, allocation);
        uint8_t* const weights = ZL_Output_ptr(weightsStream);
        const size_t tableLog  = (size_t)ctable[0];

        HUF_CElt const* ct = ctable + 1;
        for (size_t i = 0; i < weightsSize; ++i) {
            size_t const length = HUF_getNbBits(ct[i]);
            ZL_ASSERT_EQ(length, HUF_getNbBitsFromCTable(ctable, (uint8_t)i));
            weights[i] = (uint8_t)(length == 0 ? 0 : tableLog + 1 - length);
            ZL_ASSERT_EQ(weights[i] == 0, histogram->count[i] == 0);
        }

        ZL_ERR_IF_ERR(
                ZL_Output_setIntMetadata(weightsStream, 0, (int)tableLog));
        ZL_ERR_IF_ERR(ZL_Output_commit(weightsStream, weightsSize));
    }

    // 2. Decide on 4x streams & send header
    bool const x4 = srcSize >= 256;
    {
        size_t const nbBytes = (size_t)(ZL_nextPow2(srcSize + 1) + 7) / 8;
        uint8_t header[sizeof(uint64_t) + 1];
        header[0] = (uint8_t)(x4 ? 1 : 0);
        ZL_writeLE64_N(header + 1, srcSize, nbBytes);
        ZL_ASSERT_EQ(ZL_readLE64_N(header + 1, nbBytes), srcSize);
        ZL_Encoder_sendCodecHeader(eictx, header, nbBytes + 1);
    }

    // 3. Encode
    size_t const bitCapacity = HUF_compressBound(srcSize);
    ZL_Output* bitStream =
            ZL_Encoder_createTypedStream(eictx, 1, bitCapacity, 1);
    ZL_ERR_IF_NULL(bitStream, allocation);

    size_t const bitSize = x4 ? HUF_compress4X_usingCTable(
                                        ZL_Output_ptr(bitStream),
                                        bitCapacity,
                                        src,
                                        srcSize,
                                        ctable)
                              : HUF_compress1X_usingCTable(
                                        ZL_Output_ptr(bitStream),
                                        bitCapacity,
                                        src,
                                        srcSize,
                                        ctable);
    ZL_ERR_IF(HUF_isError(bitSize), node_invalid_input);
    ZL_ERR_IF_EQ(
            bitSize,
            0,
            node_invalid_input,
            "Huffman source is not compressible (should be impossible to trigger for user)");
    ZL_ERR_IF_ERR(ZL_Output_commit(bitStream, bitSize));

    return ZL_returnSuccess();
}

ZL_Report
EI_huffman_struct_v2(ZL_Encoder* eictx, const ZL_Input* ins[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(eictx);
    ZL_ASSERT_EQ(nbIns, 1);
    ZL_ASSERT_NN(ins);
    const ZL_Input* in = ins[0];
    ZL_ERR_IF_NE(ZL_Input_eltWidth(in), 2, node_invalid_input);

    ZL_ASSERT(ZL_Input_type(in) == ZL_Type_struct);
    uint16_t const* src           = ZL_Input_ptr(in);
    size_t const srcSize          = ZL_Input_numElts(in);
    ZL_Histogram const* histogram = getHistogram(eictx, in);

    ZL_ERR_IF_LT(
            srcSize,
            2,
            node_invalid_input,
            "Must not use Huffman for 0 or 1 element (should be impossible for users to trigger)");
    ZL_ERR_IF_EQ(
            histogram->count[histogram->maxSymbol],
            histogram->total,
            node_invalid_input,
            "Must not use Huffman on constant data (should be impossible for users to trigger)");

    // 1. Build table
    ZS_Huf16CElt* ctable;
    int tableLog;
    {
        size_t const weightsSize = histogram->maxSymbol + 1;
        ZL_Output* const weightsStream =
                ZL_Encoder_createTypedStream(eictx, 0, weightsSize, 1);
        ZL_ERR_IF_NULL(weightsStream, allocation);
        uint8_t* const weights = ZL_Output_ptr(weightsStream);

        ctable = ZL_Encoder_getScratchSpace(
                eictx, sizeof(ZS_Huf16CElt) * weightsSize);
        ZL_ERR_IF_NULL(ctable, allocation);
        // rumi patch (vendor/openzl-sys/RUMI-PATCHES.md): cap the code length at 13 bits, or one
        // bit more than the alphabet needs, instead of up to 20. The decoder builds a table of
        // 2^tableLog entries per frame: 2^13 fit in L1, 2^16 do not (Landsat 8: +17 % decode for
        // 0.02 % of size). The frame format is unchanged: any OpenZL decoder reads these tables.
        int capLog = 0;
        {
            size_t nbSymbols = 0;
            for (size_t i = 0; i <= histogram->maxSymbol; ++i) {
                nbSymbols += histogram->count[i] != 0;
            }
            int need = 1;
            while (((size_t)1 << need) < nbSymbols) {
                ++need;
            }
            capLog = ZL_MAX(13, need + 1);
            capLog = ZL_MIN(capLog, 20);
        }
        ZL_Report tableLogRet = ZS_largeHuffmanBuildCTable(
                ctable, histogram->count, (uint16_t)histogram->maxSymbol, capLog);
        ZL_ERR_IF_ERR(tableLogRet);
        tableLog = (int)ZL_validResult(tableLogRet);

        for (size_t i = 0; i < weightsSize; ++i) {
            int const length = ctable[i].nbBits;
            weights[i] = (uint8_t)(length == 0 ? 0 : tableLog + 1 - length);
            ZL_ASSERT_EQ(weights[i] == 0, histogram->count[i] == 0);
        }

        ZL_ERR_IF_ERR(
                ZL_Output_setIntMetadata(weightsStream, 0, (int)tableLog));
        ZL_ERR_IF_ERR(ZL_Output_commit(weightsStream, weightsSize));
    }

    // 2. Decide on 4x streams & send header
    bool const x4 = srcSize > 1000;
    {
        size_t const nbBytes = (size_t)(ZL_nextPow2(srcSize + 1) + 7) / 8;
        uint8_t header[sizeof(uint64_t) + 1];
        header[0] = (uint8_t)(x4 ? 1 : 0);
        ZL_writeLE64_N(header + 1, srcSize, nbBytes);
        ZL_ASSERT_EQ(ZL_readLE64_N(header + 1, nbBytes), srcSize);
        ZL_Encoder_sendCodecHeader(eictx, header, nbBytes + 1);
    }

    // 3. Encode
    size_t const bitCapacity = 2 * srcSize + 32;
    ZL_Output* bitStream =
            ZL_Encoder_createTypedStream(eictx, 1, bitCapacity, 1);
    ZL_ERR_IF_NULL(bitStream, allocation);

    ZL_WC bits             = ZL_WC_wrap(ZL_Output_ptr(bitStream), bitCapacity);
    ZL_Report const report = x4
            ? ZS_largeHuffmanEncodeUsingCTableX4(
                      &bits, src, srcSize, ctable, tableLog)
            : ZS_largeHuffmanEncodeUsingCTable(
                      &bits, src, srcSize, ctable, tableLog);
    ZL_ERR_IF_ERR(report);
    ZL_ASSERT_LE(ZL_WC_size(&bits), bitCapacity);
    ZL_ERR_IF_ERR(ZL_Output_commit(bitStream, ZL_WC_size(&bits)));

    return ZL_returnSuccess();
}

// ZL_TypedEncoderFn
ZL_Report EI_fse_typed(ZL_Encoder* eictx, const ZL_Input* ins[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(eictx);
    ZL_ASSERT_EQ(nbIns, 1);
    ZL_ASSERT_NN(ins);
    const ZL_Input* in = ins[0];
    ZL_ASSERT_NN(eictx);
    ZL_ASSERT_NN(in);
    ZL_ASSERT(
            ZL_Input_type(in) == ZL_Type_serial
            || ZL_Input_type(in) == ZL_Type_struct);
    ZL_ERR_IF_NE(ZL_Input_eltWidth(in), 1, GENERIC);
    const void* const src = ZL_Input_ptr(in);
    size_t const srcSize  = ZL_Input_numElts(in);
    size_t const dstCapacity =
            ZS_Entropy_encodedSizeBound(srcSize, /* elementSize */ 1);
    ZL_Output* const out =
            ZL_Encoder_createTypedStream(eictx, 0, dstCapacity, 1);
    ZL_ERR_IF_NULL(out, allocation);
    // Starting version 5 we can support more than two states and we send the
    // number of states in the header, otherwise we conform to older versions
    // that only support 2 states.
    uint8_t nbStates = 2;
    if (ZL_Encoder_getCParam(eictx, ZL_CParam_formatVersion) >= 5) {
        nbStates               = 4;
        const uint8_t header[] = { nbStates };
        ZL_Encoder_sendCodecHeader(eictx, header, sizeof(header));
    }
    // TODO(@Cyan): ZS_Entropy_encodeFse() uses an old (deprecated)
    // ZL_WriteCursor API, it should be updated to no longer depends on this
    // abstraction
    ZL_WriteCursor wc = ZL_WC_wrap(ZL_Output_ptr(out), dstCapacity);
    ZL_ERR_IF(
            ZL_isError(ZS_Entropy_encodeFse(
                    &wc, src, srcSize, /* elementSize */ 1, nbStates)),
            GENERIC);
    ZL_ERR_IF_ERR(ZL_Output_commit(out, ZL_WC_size(&wc)));
    return ZL_returnValue(1);
}

static void EI_huffman_header(ZL_Encoder* eictx, ZL_Input const* in)
{
    bool const isTransposed = false; // Support removed in version 11
    // Starting in format 4 we no longer send a header for ZL_Type_serial,
    // because we can infer that information from the type of the transform. We
    // still need to send the header in version 3 and earlier for compatibility.
    if (ZL_Encoder_getCParam(eictx, ZL_CParam_formatVersion) >= 4
        && ZL_Input_type(in) == ZL_Type_serial) {
        return;
    }
    size_t const eltWidth = ZL_Input_eltWidth(in);
    uint8_t header[1 + ZL_VARINT_LENGTH_64];
    header[0]         = isTransposed ? 1 : 0;
    size_t varintSize = ZL_varintEncode((uint64_t)eltWidth, header + 1);
    ZL_Encoder_sendCodecHeader(eictx, header, 1 + varintSize);
}

// ZL_TypedEncoderFn
ZL_Report
EI_huffman_typed(ZL_Encoder* eictx, const ZL_Input* ins[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(eictx);
    ZL_ASSERT_EQ(nbIns, 1);
    ZL_ASSERT_NN(ins);
    const ZL_Input* in = ins[0];
    ZL_ASSERT_NN(eictx);
    ZL_ASSERT_NN(in);

    //> Determine the nbElts/eltWidth for entropy coding.
    //> If isTransposed: nbElts = in-nbElts * in-eltWidth, eltWidth = 1.
    //> Else: nbElts = in-nbElts, eltWidth = in-eltWidth.
    const void* const src = ZL_Input_ptr(in);
    size_t const eltWidth = ZL_Input_eltWidth(in);
    size_t const nbElts   = ZL_Input_numElts(in);

    ZL_ERR_IF_GT(
            eltWidth,
            2,
            node_invalid_input,
            "eltWidth > 2 is no longer supported for encoding.");

    ZL_ASSERT(
            ZL_Input_type(in) == ZL_Type_serial
            || ZL_Input_type(in) == ZL_Type_struct);
    ZL_ERR_IF_GT(eltWidth, 2, GENERIC);

    //> Tell the entropy compressor to use Huffman, or a raw-bits mode,
    //> and allow block splitting.
    ZS_Entropy_TypeMask_e const allowedTypes = ZS_Entropy_TypeMask_huf
            | ZS_Entropy_TypeMask_raw | ZS_Entropy_TypeMask_constant
            | ZS_Entropy_TypeMask_bit | ZS_Entropy_TypeMask_multi;
    ZS_Entropy_EncodeParameters params =
            ZS_Entropy_EncodeParameters_fromAllowedTypes(allowedTypes);

    //> Allocate our output buffer with space for our header + entropy.
    size_t const dstCapacity = ZS_Entropy_encodedSizeBound(nbElts, eltWidth);
    ZL_Output* const out     = ZL_Encoder_createTypedStream(
            eictx, 0, dstCapacity, /* eltWidth */ 1);
    ZL_ERR_IF_NULL(out, allocation);
    ZL_WriteCursor wc = ZL_WC_wrap(ZL_Output_ptr(out), dstCapacity);

    //> Write our header & encode
    EI_huffman_header(eictx, in);
    if (nbElts > 0) {
        ZL_ERR_IF(
                ZL_isError(
                        ZS_Entropy_encode(&wc, src, nbElts, eltWidth, &params)),
                GENERIC);
    }

    //> Tell how large the output stream is.
    ZL_ERR_IF_ERR(ZL_Output_commit(out, ZL_WC_size(&wc)));

    //> Return the number of output streams.
    return ZL_returnValue(1);
}

/**
 * Splits the input into chunks to entropy compress independently.
 *
 * TODO: This currently only splits into fixed size chunks. We should
 * do intelligent block splitting at higher compression levels.
 */
static ZL_RESULT_OF(ZL_EdgeList)
        chunkInputStream(ZL_Graph* gctx, ZL_Edge** sctx)
{
    ZL_RESULT_DECLARE_SCOPE(ZL_EdgeList, gctx);
    ZL_Input const* input = ZL_Edge_getData(*sctx);
    size_t const nbElts   = ZL_Input_numElts(input);
    ZL_ASSERT_NE(ZL_Input_type(input) & (ZL_Type_serial | ZL_Type_struct), 0);

    // TODO: These are taken directly from the entropy compression library to
    // match behavior. We should look into tuning these.
    size_t const kChunkSize      = 1 << 15;
    size_t const kMinSizeToChunk = 100000;
    if (nbElts < kMinSizeToChunk) {
        ZL_EdgeList out = { .edges = sctx, .nbEdges = 1 };
        return ZL_WRAP_VALUE(out);
    }

    size_t const nbChunks = (nbElts + kChunkSize - 1) / kChunkSize;
    size_t* chunkSizes =
            ZL_Graph_getScratchSpace(gctx, sizeof(size_t) * nbChunks);
    ZL_ERR_IF_NULL(chunkSizes, allocation);

    ZL_ASSERT_GE(nbChunks, 1);
    for (size_t i = 0; i < nbChunks - 1; ++i) {
        chunkSizes[i] = kChunkSize;
    }
    chunkSizes[nbChunks - 1] = nbElts % kChunkSize;

    return ZL_Edge_runSplitNode(sctx[0], chunkSizes, nbChunks);
}

typedef enum {
    EBM_huf,
    EBM_fse,
    EBM_store,
    EBM_any,
} EntropyBackendMode;

typedef enum {
    HM_huf0,
    HM_pivco,
    HM_any,
} HuffmanMode;

/// Resolves EBM_any to a concrete mode and returns the entropy compressed
/// size
static size_t resolveMode(
        DataStatsU8* stats,
        const ZL_Histogram* histogram,
        HufCTable hufCTable,
        size_t minGain,
        EntropyBackendMode* mode)
{
    // TODO: Better selection between Huffman & FSE
    // Take decompression speed into account
    const size_t nbElts = histogram->total;

    if (nbElts <= 64) {
        // Don't even attempt entropy compression on tiny inputs
        *mode = EBM_store;
        return nbElts;
    }

    if (*mode == EBM_any) {
        ZL_ASSERT_NN(hufCTable);
        const size_t hufSize    = estimateHuffmanSize(hufCTable, histogram);
        const size_t fseSize    = estimateFseSize(stats);
        const size_t minFseGain = nbElts / 100;
        size_t entropySize;
        if (fseSize + minFseGain <= hufSize) {
            *mode       = EBM_fse;
            entropySize = fseSize;
        } else {
            *mode       = EBM_huf;
            entropySize = hufSize;
        }
        if (entropySize + minGain <= nbElts) {
            return entropySize;
        } else {
            *mode = EBM_store;
            return nbElts;
        }
    } else if (*mode == EBM_huf) {
        ZL_ASSERT_NN(hufCTable);
        const size_t hufSize = estimateHuffmanSize(hufCTable, histogram);
        if (hufSize + minGain <= nbElts) {
            return hufSize;
        } else {
            *mode = EBM_store;
            return nbElts;
        }
    } else if (*mode == EBM_fse) {
        ZL_ASSERT_NULL(hufCTable);
        const size_t fseSize = estimateFseSize(stats);
        if (fseSize + minGain <= nbElts) {
            return fseSize;
        } else {
            *mode = EBM_store;
            return nbElts;
        }
    } else {
        ZL_ASSERT_EQ(*mode, EBM_store);
        return nbElts;
    }
}

static ZL_RESULT_OF(ZL_EdgeList) runNode_withParams(
        ZL_Edge* sctx,
        ZL_NodeID node,
        ZL_Histogram const* histogram,
        HufCTable ctable)
{
    ZL_RefParam const refParams[2] = {
        {
                .paramId  = ENTROPY_HISTORAM_PID,
                .paramRef = histogram,
        },
        {
                .paramId  = ENTROPY_HUF_CTABLE_PID,
                .paramRef = ctable,
        },
    };
    ZL_LocalParams params = {
        .refParams = {
                .refParams = refParams,
                .nbRefParams = 2,
        },
    };
    return ZL_Edge_runNode_withParams(sctx, node, &params);
}

static ZL_Histogram* getHistogram8(ZL_Graph* gctx, DataStatsU8* stats)
{
    ZL_Histogram* histogram = (ZL_Histogram*)ZL_Graph_getScratchSpace(
            gctx, sizeof(ZL_Histogram8));
    if (histogram == NULL) {
        return NULL;
    }
    memcpy(histogram->count,
           DataStatsU8_getHistogram(stats),
           256 * sizeof(uint32_t));
    histogram->total        = (unsigned)DataStatsU8_totalElements(stats);
    histogram->maxSymbol    = DataStatsU8_getMaxElt(stats);
    histogram->elementSize  = 1;
    histogram->largestCount = 0;
    histogram->cardinality  = (unsigned)DataStatsU8_getCardinality(stats);
    for (size_t i = 0; i < histogram->maxSymbol + 1; ++i) {
        histogram->largestCount =
                ZL_MAX(histogram->count[i], histogram->largestCount);
    }
    return histogram;
}

static ZL_Report runBitpack(ZL_Edge* input)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(NULL);
    ZL_TRY_LET(
            ZL_EdgeList,
            streams,
            ZL_Edge_runNode(input, ZL_NODE_INTERPRET_TOKEN_AS_LE));
    ZL_ASSERT_EQ(streams.nbEdges, 1);
    ZL_ERR_IF_ERR(ZL_Edge_setDestination(streams.edges[0], ZL_GRAPH_BITPACK));
    return ZL_returnSuccess();
}

static size_t getMinGainBytes(const ZL_Graph* graph, size_t contentSize)
{
    const size_t kDefaultMinGainBytes = 32;
    const size_t kDefaultMinGainPct   = 1;

    ZL_IntParam param =
            ZL_Graph_getLocalIntParam(graph, ZL_ENTROPY_MIN_GAIN_BYTES_PID);
    size_t minGainBytes = kDefaultMinGainBytes;
    if (param.paramId != ZL_LP_INVALID_PARAMID) {
        minGainBytes = (size_t)ZL_MAX(param.paramValue, 0);
    }

    param = ZL_Graph_getLocalIntParam(graph, ZL_ENTROPY_MIN_GAIN_PCT_PID);
    size_t minGainPct = kDefaultMinGainPct;
    if (param.paramId != ZL_LP_INVALID_PARAMID) {
        minGainPct = (size_t)ZL_MIN(ZL_MAX(param.paramValue, 0), 100);
    }

    return ZL_MAX(minGainBytes, (contentSize / 100) * minGainPct);
}

static ZL_NodeID huffmanNode(HuffmanMode mode, int formatVersion)
{
    if (formatVersion < 27) {
        // PivCo-Huffman not yet supported
        mode = HM_huf0;
    }
    switch (mode) {
        // Default to Huf0 for now, this will be swapped in a future diff.
        case HM_any:
        case HM_huf0:
            return (ZL_NodeID){ ZL_PrivateStandardNodeID_huffman_v2 };
        case HM_pivco:
            return (ZL_NodeID){ ZL_PrivateStandardNodeID_pivco_huffman };
        default:
            ZL_ASSERT(false, "Invalid Huffman mode");
            return ZL_NODE_ILLEGAL;
    }
}

/**
 * Entropy compresses a single chunk by selecting the most efficient backend
 * allowed by the mode.
 */
static ZL_Report entropyCompressChunk(
        ZL_Graph* gctx,
        ZL_Edge* chunk,
        EntropyBackendMode mode,
        size_t minGainBytes,
        HuffmanMode hufMode)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(gctx);
    ZL_Input const* input = ZL_Edge_getData(chunk);
    size_t const nbElts   = ZL_Input_numElts(input);
    size_t const eltWidth = ZL_Input_eltWidth(input);

    if (nbElts <= 1) {
        return ZL_Edge_setDestination(chunk, ZL_GRAPH_STORE);
    }

    if (ZL_Input_type(input) != ZL_Type_serial) {
        ZL_ASSERT_EQ(eltWidth, 2, "Already converted to serial");
        ZL_ASSERT_EQ(ZL_Input_type(input), ZL_Type_struct);
        ZL_Histogram* histogram = (ZL_Histogram*)ZL_Graph_getScratchSpace(
                gctx, sizeof(ZL_Histogram16));
        ZL_ERR_IF_NULL(histogram, allocation);
        ZL_Histogram_init(histogram, 65535);
        ZL_Histogram_build(histogram, ZL_Input_ptr(input), nbElts, eltWidth);

        if (histogram->total == histogram->count[histogram->maxSymbol]) {
            ZL_ASSERT(ZL_Graph_isConstantSupported(gctx));
            return ZL_Edge_setDestination(chunk, ZL_GRAPH_CONSTANT);
        }

        // Get the huffman size estimate
        double entropy = ZL_calculateEntropy(
                histogram->count, histogram->maxSymbol, histogram->total);
        entropy                  = ZL_MAX(1, entropy);
        size_t const entropySize = (size_t)(entropy * (double)nbElts + 7) / 8;
        size_t const headerSizeEstimate = ZL_MAX(100, histogram->maxSymbol / 4);
        size_t const huffSize           = entropySize + headerSizeEstimate;
        size_t const storeSize          = 2 * nbElts;

        // Check if we should use bitpack
        ZL_ASSERT_NE(histogram->maxSymbol, 0);
        ZL_ASSERT(ZL_isLittleEndian(), "Only supports LE currently");
        size_t const nbBits = (size_t)ZL_nextPow2(histogram->maxSymbol + 1);
        size_t const bitpackSize = ((nbElts * nbBits + 7) / 8) + /* header */ 2;

        if (bitpackSize <= huffSize
            && bitpackSize + minGainBytes <= storeSize) {
            return runBitpack(chunk);
        }

        // Check if we can simply store the data
        if (entropy > 15 || huffSize + minGainBytes > storeSize) {
            return ZL_Edge_setDestination(chunk, ZL_GRAPH_STORE);
        }

        // Check if we can use tokenization
        if (histogram->cardinality < 256) {
            ZL_TRY_LET(
                    ZL_EdgeList,
                    streams,
                    ZL_Edge_runNode(chunk, ZL_NODE_TOKENIZE));
            ZL_ASSERT_EQ(streams.nbEdges, 2);
            // Bitpack the values stream if possible
            ZL_ERR_IF_ERR(
                    nbBits < 16 ? runBitpack(streams.edges[0])
                                : ZL_Edge_setDestination(
                                          streams.edges[0], ZL_GRAPH_STORE));
            // Huffman compress the tokenized stream
            ZL_ERR_IF_ERR(
                    ZL_Edge_setDestination(streams.edges[1], ZL_GRAPH_HUFFMAN));
            return ZL_returnSuccess();
        }

        // TODO: Allow tokenization
        ZL_TRY_LET(
                ZL_EdgeList,
                streams,
                runNode_withParams(
                        chunk,
                        (ZL_NodeID){
                                ZL_PrivateStandardNodeID_huffman_struct_v2 },
                        histogram,
                        NULL));
        ZL_ASSERT_EQ(streams.nbEdges, 2);
        ZL_ERR_IF_ERR(ZL_Edge_setDestination(streams.edges[0], ZL_GRAPH_FSE));
        ZL_ERR_IF_ERR(ZL_Edge_setDestination(streams.edges[1], ZL_GRAPH_STORE));
        return ZL_returnSuccess();
    }

    DataStatsU8 stats;
    DataStatsU8_init(&stats, ZL_Input_ptr(input), nbElts);
    ZL_Histogram* const histogram = getHistogram8(gctx, &stats);
    ZL_ERR_IF_NULL(histogram, allocation);

    if (mode == EBM_huf) {
        // Short-circuit for uncompressible data (taken from FSE's Huffman)
        if (histogram->largestCount <= (histogram->total >> 7) + 4) {
            mode = EBM_store;
        }
    }

    if (DataStatsU8_getCardinality(&stats) == 1) {
        ZL_ASSERT(ZL_Graph_isConstantSupported(gctx));
        return ZL_Edge_setDestination(chunk, ZL_GRAPH_CONSTANT);
    }

    // Build the Huffman table if Huffman is allowed. This allows an accurate
    // estimate of the Huffman compressed size. If Huffman is chosen the CTable
    // will be passed down to the Huffman node.
    HUF_CElt* hufCTable = NULL;
    if (mode == EBM_huf || mode == EBM_any) {
        hufCTable = ZL_Graph_getScratchSpace(
                gctx, HUF_CTABLE_SIZE(histogram->maxSymbol));
        ZL_ERR_IF_NULL(hufCTable, allocation);
        ZL_ERR_IF_ERR(buildHufCTable(hufCTable, histogram));
    }

    const size_t entropySize =
            resolveMode(&stats, histogram, hufCTable, minGainBytes, &mode);
    ZL_ASSERT_LE(entropySize, nbElts);

    size_t const flatpackedSize = DataStatsU8_getFlatpackedSize(&stats);
    size_t const bitpackedSize  = DataStatsU8_getBitpackedSize(&stats);

    if (flatpackedSize < bitpackedSize) {
        if (flatpackedSize < entropySize
            && flatpackedSize + minGainBytes <= nbElts) {
            return ZL_Edge_setDestination(chunk, ZL_GRAPH_FLATPACK);
        }
    } else {
        if (bitpackedSize <= entropySize
            && bitpackedSize + minGainBytes <= nbElts) {
            return ZL_Edge_setDestination(chunk, ZL_GRAPH_BITPACK);
        }
    }

    if (mode == EBM_huf) {
        ZL_NodeID node = huffmanNode(
                hufMode, ZL_Graph_getCParam(gctx, ZL_CParam_formatVersion));
        ZL_TRY_LET(
                ZL_EdgeList,
                streams,
                runNode_withParams(chunk, node, histogram, hufCTable));
        ZL_ASSERT_EQ(streams.nbEdges, 2);
        // TODO(T267366720): Improve Huffman header encoding.
        // Bitpack is fast but leaves a lot on the table, however FSE is too
        // slow on small inputs to be worthwhile.
        ZL_ERR_IF_ERR(
                ZL_Edge_setDestination(streams.edges[0], ZL_GRAPH_BITPACK_INT));
        ZL_ERR_IF_ERR(ZL_Edge_setDestination(streams.edges[1], ZL_GRAPH_STORE));
        return ZL_returnSuccess();
    } else if (mode == EBM_fse) {
        ZL_TRY_LET(
                ZL_EdgeList,
                streams,
                runNode_withParams(
                        chunk,
                        (ZL_NodeID){ ZL_PrivateStandardNodeID_fse_v2 },
                        histogram,
                        hufCTable));
        ZL_ASSERT_EQ(streams.nbEdges, 2);
        ZL_ERR_IF_ERR(ZL_Edge_setDestination(
                streams.edges[0],
                (ZL_GraphID){ ZL_PrivateStandardGraphID_fse_ncount }));
        ZL_ERR_IF_ERR(ZL_Edge_setDestination(streams.edges[1], ZL_GRAPH_STORE));
        return ZL_returnSuccess();
    } else {
        ZL_ASSERT_EQ(mode, EBM_store);
        return ZL_Edge_setDestination(chunk, ZL_GRAPH_STORE);
    }
}

static ZL_Report entropyDynamicGraph(
        ZL_Graph* gctx,
        ZL_Edge* sctx,
        EntropyBackendMode mode,
        HuffmanMode hufMode)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(gctx);

    const size_t contentSize = ZL_Input_contentSize(ZL_Edge_getData(sctx));

    if (contentSize <= 1) {
        return ZL_Edge_setDestination(sctx, ZL_GRAPH_STORE);
    }

    const size_t minGainBytes = getMinGainBytes(gctx, contentSize);

    ZL_TRY_LET(ZL_EdgeList, chunks, chunkInputStream(gctx, &sctx));
    for (size_t i = 0; i < chunks.nbEdges; ++i) {
        // Scale minGainBytes to divide evenly among the chunks
        const size_t chunkSize =
                ZL_Input_contentSize(ZL_Edge_getData(chunks.edges[i]));
        const size_t scaledMinGainBytes =
                (minGainBytes * chunkSize) / contentSize;
        ZL_ERR_IF_ERR(entropyCompressChunk(
                gctx, chunks.edges[i], mode, scaledMinGainBytes, hufMode));
    }
    return ZL_returnSuccess();
}

static ZL_Report doEntropyConversion(ZL_Graph* gctx, ZL_Edge** sctx)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(gctx);
    (void)gctx;

    ZL_Input const* const input = ZL_Edge_getData(*sctx);
    ZL_Type const type          = ZL_Input_type(input);
    size_t const eltWidth       = ZL_Input_eltWidth(input);
    ZL_ASSERT_NE(type & (ZL_Type_serial | ZL_Type_struct | ZL_Type_numeric), 0);
    if (eltWidth == 1) {
        if (type != ZL_Type_serial) {
            // Convert eltWidth=1 to serial at the top level for efficiency &
            // simplicity
            ZL_NodeID const conversion = type == ZL_Type_numeric
                    ? ZL_NODE_CONVERT_NUM_TO_SERIAL
                    : ZL_NODE_CONVERT_TOKEN_TO_SERIAL;
            ZL_TRY_LET(ZL_EdgeList, serial, ZL_Edge_runNode(*sctx, conversion));
            *sctx = serial.edges[0];
        }
    } else {
        ZL_ASSERT_GT(eltWidth, 1);
        ZL_ERR_IF_NE(eltWidth, 2, node_invalid_input);

        if (type == ZL_Type_numeric) {
            // Accept numeric inputs so we don't get a conversion from
            // numeric -> struct -> serial for eltWidth 1 data. Then convert
            // to struct for eltWidth 2.
            ZL_TRY_LET(
                    ZL_EdgeList,
                    structs,
                    ZL_Edge_runNode(*sctx, ZL_NODE_CONVERT_NUM_TO_TOKEN));
            ZL_ASSERT_EQ(structs.nbEdges, 1);
            *sctx = structs.edges[0];
        }
    }

#ifndef NDEBUG
    // Check that we've correctly converted the stream
    ZL_Input const* const newInput = ZL_Edge_getData(*sctx);
    ZL_Type const newType          = ZL_Input_type(newInput);
    size_t const newEltWidth       = ZL_Input_eltWidth(newInput);
    ZL_ASSERT(
            (newType == ZL_Type_serial && newEltWidth == 1)
            || (newType == ZL_Type_struct && newEltWidth == 2));
#endif

    return ZL_returnSuccess();
}

ZL_Report EI_fseDynamicGraph(ZL_Graph* gctx, ZL_Edge* inputs[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(gctx);
    ZL_ERR_IF(nbIns != 1, graph_invalidNumInputs);
    ZL_Edge* input = inputs[0];
    ZL_ERR_IF_ERR(doEntropyConversion(gctx, &input));
    if (ZL_Graph_getCParam(gctx, ZL_CParam_formatVersion) < 15) {
        ZL_TRY_LET(
                ZL_EdgeList,
                streams,
                ZL_Edge_runNode(
                        input,
                        (ZL_NodeID){
                                ZL_PrivateStandardNodeID_fse_deprecated }));
        ZL_ASSERT_EQ(streams.nbEdges, 1);
        return ZL_Edge_setDestination(streams.edges[0], ZL_GRAPH_STORE);
    }
    return entropyDynamicGraph(gctx, input, EBM_fse, HM_any);
}

static ZL_Report EI_huffmanDynamicGraphImpl(
        ZL_Graph* gctx,
        ZL_Edge* inputs[],
        size_t nbIns,
        HuffmanMode hufMode)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(gctx);
    ZL_ERR_IF(nbIns != 1, graph_invalidNumInputs);
    ZL_Edge* input = inputs[0];
    ZL_ERR_IF_ERR(doEntropyConversion(gctx, &input));
    if (ZL_Graph_getCParam(gctx, ZL_CParam_formatVersion) < 15) {
        ZL_NodeID const node =
                ZL_Input_type(ZL_Edge_getData(input)) == ZL_Type_serial
                ? (ZL_NodeID){ ZL_PrivateStandardNodeID_huffman_deprecated }
                : (ZL_NodeID){
                      ZL_PrivateStandardNodeID_huffman_fixed_deprecated
                  };
        ZL_TRY_LET(ZL_EdgeList, streams, ZL_Edge_runNode(input, node));
        ZL_ASSERT_EQ(streams.nbEdges, 1);
        return ZL_Edge_setDestination(streams.edges[0], ZL_GRAPH_STORE);
    }
    return entropyDynamicGraph(gctx, input, EBM_huf, hufMode);
}

ZL_Report
EI_huffmanDynamicGraph(ZL_Graph* gctx, ZL_Edge* inputs[], size_t nbIns)
{
    return EI_huffmanDynamicGraphImpl(gctx, inputs, nbIns, HM_any);
}

ZL_Report
EI_huffmanDynamicGraphHuf0(ZL_Graph* gctx, ZL_Edge* inputs[], size_t nbIns)
{
    return EI_huffmanDynamicGraphImpl(gctx, inputs, nbIns, HM_huf0);
}

ZL_Report
EI_huffmanDynamicGraphPivco(ZL_Graph* gctx, ZL_Edge* inputs[], size_t nbIns)
{
    return EI_huffmanDynamicGraphImpl(gctx, inputs, nbIns, HM_pivco);
}

ZL_Report
EI_entropyDynamicGraph(ZL_Graph* gctx, ZL_Edge* inputs[], size_t nbIns)
{
    ZL_RESULT_DECLARE_SCOPE_REPORT(gctx);
    ZL_ERR_IF(nbIns != 1, graph_invalidNumInputs);
    ZL_Edge* input = inputs[0];
    ZL_ERR_IF_ERR(doEntropyConversion(gctx, &input));
    if (ZL_Graph_getCParam(gctx, ZL_CParam_formatVersion) < 15) {
        ZL_Input const* stream = ZL_Edge_getData(input);
        if (ZL_Input_type(stream) != ZL_Type_serial) {
            return EI_huffmanDynamicGraph(gctx, &input, 1);
        }
        ZL_GraphID const graph = EI_selector_entropy(gctx, input);
        return ZL_Edge_setDestination(input, graph);
    }
    return entropyDynamicGraph(gctx, input, EBM_any, HM_any);
}

ZL_Report ZL_Edge_setEntropyDestination(
        ZL_Edge* edge,
        ZL_GraphID entropyGraph,
        int minGainBytes,
        int minGainPct)
{
    ZL_IntParam intParams[2];
    size_t numIntParams = 0;
    if (minGainBytes >= 0) {
        intParams[numIntParams++] =
                (ZL_IntParam){ ZL_ENTROPY_MIN_GAIN_BYTES_PID, minGainBytes };
    }
    if (minGainPct >= 0) {
        intParams[numIntParams++] =
                (ZL_IntParam){ ZL_ENTROPY_MIN_GAIN_PCT_PID, minGainPct };
    }
    ZL_LocalParams lp = { .intParams = { intParams, numIntParams } };
    ZL_RuntimeGraphParameters params = {
        .localParams = &lp,
    };
    return ZL_Edge_setParameterizedDestination(&edge, 1, entropyGraph, &params);
}
