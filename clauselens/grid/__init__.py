"""The clause grid (issue #21): a library's agreements × a list of questions in, a verified
review table out (``clauselens grid``). Retrieval goes through the library pinned to each
agreement; the model gives a short typed answer with a quote that is checked verbatim."""

from clauselens.grid.answer import CellAnswer, ask_model, fingerprint, finish, retrieve
from clauselens.grid.cells import Cell, CellStore, status_counts
from clauselens.grid.export import check_out_path, write_grid
from clauselens.grid.questions import CUAD, GridQuestion, load_questions, preset
from clauselens.grid.runner import GridRow, GridStats, run_grid

__all__ = ["CUAD", "Cell", "CellAnswer", "CellStore", "GridQuestion", "GridRow", "GridStats", "ask_model", "check_out_path",
           "finish", "fingerprint", "load_questions", "preset", "retrieve", "run_grid", "status_counts", "write_grid"]
