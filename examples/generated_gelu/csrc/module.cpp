// The extension module generated_gelu._C (or _C_avx512, _C_avx2: the instruction set
// its CPU loops are compiled for, see build_config.py) defines no Python functions. Importing it
// loads this shared library, and the library's static initializers register every operator of the
// project with the PyTorch dispatcher. Without pybind11 the library needs only the limited Python
// API, so one abi3 wheel serves every CPython version from 3.10 on.
#include <Python.h>
#include <torch/library.h>

// PyInit_<module name>: the build defines TORCH_EXTENSION_NAME as the module's name.
#define OPS_CONCAT_(a, b) a##b
#define OPS_CONCAT(a, b) OPS_CONCAT_(a, b)
#define OPS_STRING_(a) #a
#define OPS_STRING(a) OPS_STRING_(a)

extern "C" PyMODINIT_FUNC OPS_CONCAT(PyInit_, TORCH_EXTENSION_NAME)(void) {
  static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, OPS_STRING(TORCH_EXTENSION_NAME), nullptr, -1,
                                      nullptr};
  return PyModule_Create(&module);
}

// Claims the namespace generated_gelu: another library that claims it too
// with TORCH_LIBRARY fails to load instead of silently mixing its operators with ours. Each
// operator of the project adds its schemas with TORCH_LIBRARY_FRAGMENT in its own csrc/<op>.cpp.
TORCH_LIBRARY(generated_gelu, m) {}
