#pragma once
typedef struct cusparseContext* cusparseHandle_t;
