// Registers the length-aware tsume-rule search (`LengthSearch`) into the kernel's Python module.
#pragma once

#include <pybind11/pybind11.h>

namespace tsume {

void bind_length(pybind11::module_& m);

}  // namespace tsume
