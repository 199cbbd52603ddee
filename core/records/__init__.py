"""Game records: the record model (a move tree with comments and header) and each format.

Modules: ``model`` (Record, RecordNode), ``reader`` (the line reader KIF and
KI2 share), ``kif``, ``ki2``, ``csa``, and ``formats`` (reading and writing by
file name or content: KIF, KIFU, KI2, CSA, SFEN, BOD).  The formats are
described in docs/kif.md.

May import: ``core.shogi``.  Records know nothing of the solvers: turning a
proof into a record is ``core.answer``'s work.
"""
