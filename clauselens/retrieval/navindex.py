"""navindex: the Researcher tool that navigates a compact structured index (issue #4).

Public names re-exported from :mod:`clauselens.retrieval.navindex_build` (index format,
deterministic flag detectors, Config-6 serialisation) and
:mod:`clauselens.retrieval.navindex_tool` (S1 scan, S2 fetch, S3 answer, the retriever).
"""

from clauselens.retrieval.navindex_build import (  # noqa: F401
    NavIndex,
    NavNode,
    build_nav_index,
    compact_index,
    has_condition,
    has_date,
    has_liability_limit,
    has_money,
    has_party,
    has_percentage,
    is_definition_text,
    is_toc_entry,
    keywords,
    serialize_index,
    write_nav_files,
)
from clauselens.retrieval.navindex_tool import (  # noqa: F401
    MAX_NODES,
    Answer,
    NavCorpus,
    NavIndexRetriever,
    ScanPick,
    ScanSelection,
    answer_from_passages,
    fetch,
    is_refusal,
    plan_scan_batches,
    provisions_block,
    scan,
    validate_picks,
)
