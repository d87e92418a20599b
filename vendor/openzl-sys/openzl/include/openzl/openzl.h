// Copyright (c) Meta Platforms, Inc. and affiliates.

#ifndef OPENZL_OPENZL_H
#define OPENZL_OPENZL_H

#include "openzl/zl_buffer.h"                   // IWYU pragma: export
#include "openzl/zl_codec_output_cache.h"       // IWYU pragma: export
#include "openzl/zl_common_types.h"             // IWYU pragma: export
#include "openzl/zl_compress.h"                 // IWYU pragma: export
#include "openzl/zl_compressor.h"               // IWYU pragma: export
#include "openzl/zl_compressor_serialization.h" // IWYU pragma: export
#include "openzl/zl_config.h"                   // IWYU pragma: export
#include "openzl/zl_ctransform.h"               // IWYU pragma: export
#include "openzl/zl_data.h"                     // IWYU pragma: export
#include "openzl/zl_dtransform.h"               // IWYU pragma: export
#include "openzl/zl_errors.h"                   // IWYU pragma: export
#include "openzl/zl_errors_types.h"             // IWYU pragma: export
#include "openzl/zl_graph_api.h"                // IWYU pragma: export
#include "openzl/zl_input.h"                    // IWYU pragma: export
#include "openzl/zl_localParams.h"              // IWYU pragma: export
#include "openzl/zl_nodes.h"                    // IWYU pragma: export
#include "openzl/zl_opaque_types.h"             // IWYU pragma: export
#include "openzl/zl_output.h"                   // IWYU pragma: export
#include "openzl/zl_portability.h"              // IWYU pragma: export
#include "openzl/zl_public_nodes.h"             // IWYU pragma: export
#include "openzl/zl_reflection.h"               // IWYU pragma: export
#include "openzl/zl_selector.h"                 // IWYU pragma: export
#include "openzl/zl_selector_declare_helper.h"  // IWYU pragma: export
#include "openzl/zl_version.h"                  // IWYU pragma: export

#endif
