// Copyright (c) Meta Platforms, Inc. and affiliates.

#ifndef ZSTRONG_CODECS_FLATPACK_H
#define ZSTRONG_CODECS_FLATPACK_H

#include "openzl/zl_graphs.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define ZL_GRAPH_FLATPACK ZL_MAKE_GRAPH_ID(ZL_StandardGraphID_flatpack)

#if defined(__cplusplus)
}
#endif

#endif
