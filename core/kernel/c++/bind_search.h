// Registers the df-pn search (`DfPnSearch`) into the kernel's Python module.
#pragma once

#include <pybind11/pybind11.h>

namespace tsume {

void bind_search(pybind11::module_& m);

}  // namespace tsume
