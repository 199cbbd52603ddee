// Registers the df-pn search (`DfPnSearch`) into the kernel's Python module.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>

#include "dfpn.h"
#include "search_board.h"

namespace tsume {

void bind_search(pybind11::module_& m);

// A published df-pn snapshot as Python sees it: (nodes, root pn, root dn, table entries, table
// fill, CPU seconds, [(selected child, OR node, [(move, pn, dn), ...]), ...] along the path).
pybind11::tuple snapshot_tuple(const dfpn::Snapshot& s);

// A DfPnSearch's searcher (with its table) lent to another search: the searcher, the object's
// "a call runs" flag (whoever searches holds it) and its attacker.
struct SharedSearch {
    std::shared_ptr<dfpn::Searcher<dfpn::SearchBoard>> searcher;
    std::shared_ptr<std::atomic<bool>> running;
    int attacker = 0;
};

// The searcher of the DfPnSearch `search` (TypeError for anything else).
SharedSearch share_search(pybind11::handle search);

}  // namespace tsume
