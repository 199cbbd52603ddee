// Registers the df-pn search (`DfPnSearch`) into the kernel's Python module.
#pragma once

#include <pybind11/pybind11.h>

namespace tsume {

namespace dfpn {
struct Snapshot;
}

void bind_search(pybind11::module_& m);

// A published df-pn snapshot as Python sees it: (nodes, root pn, root dn, table entries, table
// fill, CPU seconds, [(selected child, OR node, [(move, pn, dn), ...]), ...] along the path).
pybind11::tuple snapshot_tuple(const dfpn::Snapshot& s);

}  // namespace tsume
