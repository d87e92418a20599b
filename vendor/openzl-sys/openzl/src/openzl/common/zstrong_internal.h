// Copyright (c) Meta Platforms, Inc. and affiliates.

/**
 * \file zstrong_internal.h
 *
 * These declarations are meant to be used within the library __ONLY__
 * This includes directories common/, compress/, and decompress/.
 */

#ifndef ZSTRONG_COMMON_ZSTRONG_INTERNAL_H
#define ZSTRONG_COMMON_ZSTRONG_INTERNAL_H

#include <assert.h>

#include "openzl/common/base_types.h"

#endif // ZSTRONG_COMMON_ZSTRONG_INTERNAL_H
