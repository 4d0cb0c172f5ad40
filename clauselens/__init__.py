"""clauselens: on-premise multi-agent contract Q&A with grounded, cited reports.

Data flows Archivist (``clauselens.parsing``) -> Researcher (``clauselens.retrieval``)
-> Interrogator (``clauselens.agents``) -> report (``clauselens.reports``); the
LangGraph wiring lives in ``clauselens.graph``. See ``docs/DESIGN.md``.
"""

__version__ = "0.1.0"
