// Copyright (c) Meta Platforms, Inc. and affiliates.

#ifndef ZSTRONG_ZS2_CONFIG_H
#define ZSTRONG_ZS2_CONFIG_H

#define ZL_HAVE_X86_64_ASM 1

#define ZL_ALLOW_INTROSPECTION 1

#endif // ZSTRONG_ZS2_CONFIG_H
