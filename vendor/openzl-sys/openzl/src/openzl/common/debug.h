// Copyright (c) Meta Platforms, Inc. and affiliates.

/**
 * \file
 *
 * This file bundles common debug dependencies into one header. (They used to
 * be defined here.)
 */

#ifndef ZS_COMMON_DEBUG_H
#define ZS_COMMON_DEBUG_H

#include "openzl/common/assertion.h"
#include "openzl/common/errors_internal.h"
#include "openzl/common/logging.h"

#endif // ZS_COMMON_DEBUG_H
