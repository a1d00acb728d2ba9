#pragma once
#define C10_CUDA_BUILD_SHARED_LIBS
