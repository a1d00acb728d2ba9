#pragma once
typedef struct cublasContext* cublasHandle_t;
