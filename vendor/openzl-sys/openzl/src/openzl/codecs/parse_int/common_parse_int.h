// Copyright (c) Meta Platforms, Inc. and affiliates.

#ifndef ZSTRONG_COMMON_PARSE_INT_H
#define ZSTRONG_COMMON_PARSE_INT_H

#include "openzl/shared/portability.h"

ZL_BEGIN_C_DECLS

#define ZL_PARSE_INT_MAX_STRING_LENGTH 21

ZL_END_C_DECLS

#endif
