"""One typed settings object for the whole project.

Values come from (highest first) explicit arguments / CLI flags, environment variables
prefixed ``CLAUSELENS_`` (nested with ``__``, e.g. ``CLAUSELENS_RESEARCHER_MODEL__BASE_URL``),
then the defaults below. The object is created at the edges (CLI, benchmarks, tests) and
passed in; no module reads it as a global at import time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_cache_dir() -> Path:
    """``~/.cache/clauselens`` (override with ``CLAUSELENS_CACHE_DIR``)."""
    return Path.home() / ".cache" / "clauselens"


class ModelSettings(BaseModel):
    """Which chat model an agent uses.

    ``backend="llamacpp"`` runs a GGUF file in-process (``model`` is a bundled name,
    ``"qwen2.5-coder-1.5b"`` or ``"qwen2.5-coder-0.5b"``, or a path to a ``.gguf`` file).
    ``backend="openai"`` talks to any OpenAI-compatible server (vLLM, llama.cpp server,
    Ollama) at ``base_url`` with model name ``model``.
    ``structured_method`` picks how JSON-schema output is requested: ``auto`` chooses per
    backend (see ``clauselens.llm.structured``).
    """

    backend: Literal["llamacpp", "openai"] = "llamacpp"
    model: str = "qwen2.5-coder-1.5b"
    base_url: str | None = None
    api_key: str = "none"
    n_ctx: int = 8192
    # in-process GGUF only: llama.cpp threads for generation (n_threads) and prompt reading
    # (n_threads_batch). None = half the CPUs generate, all read prompts
    # (clauselens.llm.llamacpp_chat.default_threads): with one competing CPU-bound process on 2 vCPUs,
    # 2 generation threads ran 10-12x slower than 1 (benchmarks/llm_threads.py, README "Model threads").
    # n_threads set alone also sets n_threads_batch (CLAUSELENS_RESEARCHER_MODEL__N_THREADS=2).
    n_threads: int | None = None
    n_threads_batch: int | None = None
    temperature: float = 0.0
    # reply budget; 1,536 holds a report draft with every field at its cap (~1,000 tokens, see
    # clauselens.reports.model.ReportDraft.str_caps); short calls bind their own smaller budgets
    max_tokens: int = 1536
    request_timeout_s: float = 300.0
    structured_method: Literal["auto", "json_schema", "function_calling", "llamacpp_schema"] = "auto"
    max_retries: int = 2
    seed: int = 0
    # in-process GGUF only: run even if llama.cpp's Intel AMX kernels are built in and the CPU
    # has AMX (they segfaulted here: clauselens.llm.llamacpp_chat.amx_risk)
    allow_amx: bool = False


#: The agents that call a chat model, each with its own :class:`ModelSettings` (``Settings.model_for``).
AgentName = Literal["archivist", "researcher", "interrogator"]
AGENT_NAMES: tuple[AgentName, ...] = get_args(AgentName)

#: The Researcher's retrieval tools by name (``RetrievalSettings.tools``, CLI ``--tools``); each name
#: has one factory in :mod:`clauselens.retrieval.registry`.
ToolName = Literal["hybrid", "navindex", "navembed", "inject", "lightrag", "precedents"]
TOOL_NAMES: tuple[str, ...] = get_args(ToolName)


class RetrievalSettings(BaseModel):
    """Researcher retrieval knobs. ``rrf_k`` = 60 follows Cormack, Clarke & Buettcher (2009),
    "Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning Methods"."""

    embedder: str = "minilm"  # minilm | e5-small | mpnet | path to a sentence-transformers dir
    rrf_k: int = 60
    top_k: int = 8
    candidates: int = 40
    reranker: str = "none"  # none | llm | path to a bge cross-encoder directory
    rerank_top: int = 20
    abstain_threshold: float = 0.0
    tools: list[ToolName] = Field(default_factory=lambda: list[ToolName](["hybrid"]))
    # hybrid tool (clauselens.retrieval.hybrid.HybridRetriever): document routing ("auto" routes
    # when the query carries a "Consider <agreement>;" description, "always" routes every query,
    # "never" searches all documents), documents kept by routing, and the overlap filter (drop a
    # passage when less than this share of its characters is new; None keeps all).
    route: Literal["auto", "always", "never"] = "auto"
    route_top: int = 1
    dedupe: float | None = 0.5
    # LightRAG tool (clauselens.retrieval.lightrag): query mode (naive | local | global |
    # hybrid | mix) and whether to rebuild a graph built with another embedder.
    graph_mode: Literal["naive", "local", "global", "hybrid", "mix"] = "mix"
    graph_rebuild: bool = False
    # Precedents tool (clauselens.retrieval.precedents): a ContractNLI-format JSON of labelled
    # contracts (e.g. ../shared/data/contractnli/dev.json; never the contracts you evaluate);
    # kNN settings chosen on ContractNLI dev (depth 5, top_m 1, 5 neighbours, abstain < 0.7).
    # ``precedent_vote_weight`` w mixes the Interrogator's label with the vote:
    # argmax (1 - w) * onehot(llm) + w * vote (clauselens.agents.nli.combine); 0.7 was picked on
    # 90 ContractNLI test pairs of the single-pass mode (README), 0 leaves the label to the model.
    precedent_bank: Path | None = None
    precedent_depth: int = 5
    precedent_top_m: int = 1
    precedent_neighbours: int = 5
    precedent_match: float = 0.85
    precedent_abstain: float | None = 0.7
    precedent_vote_weight: float = 0.7
    # Library (clauselens.library): abstain ("no matching clause found") when the best passage's
    # dense cosine is below this; None keeps the threshold the library recorded (0 = off). Chosen
    # on the dev clause-QA set by benchmarks/clause_qa.py --sweep (README, "Contract library").
    library_abstain_threshold: float | None = None
    # Library reranking (clauselens.library.Library._rerank): "llm" scores the fused top
    # ``library_rerank_top`` passages with the Researcher's model (P("yes"), monoT5-style) and
    # fuses that order with the fused one; ``library_rerank_abstain`` > 0 answers "no matching
    # clause found" when no scored passage reaches it. Measured by benchmarks/clause_qa_rerank.py
    # (README, "Contract library": lift, abstention trade-off and seconds per question).
    # Rank an agreement's preamble and recitals after its operative clauses (clauselens.library,
    # Library._demote_front_matter; measured by benchmarks/clause_qa.py, README).
    library_demote_front_matter: bool = True
    # Append the contract terms of a question's lay phrases ("walk away" -> "terminate", "for
    # convenience", ...) to the library's ranking query (clauselens.retrieval.lay_terms; measured by
    # benchmarks/clause_qa.py --no-lay-terms, README "Contract library").
    library_lay_terms: bool = True
    # Category-absence abstention (issue #39; clauselens.library.category_absence for a library, the hybrid
    # retriever for files asked directly): the trained topic head reads a question's CUAD clause category, the
    # presence probe scores the agreement(s), and a category they clearly lack answers "no matching clause found"
    # (off with one notice when the topic head is not installed; needs the MiniLM embedder).
    category_absence: bool = True
    # Concept-absence abstention (issue #39; clauselens.retrieval.concept_absence, for a library and for files
    # asked directly): a question whose lay-term thesaurus concepts ("force majeure", "car allowance") the
    # agreement(s) use none of the wording of answers "no matching clause found" (benchmarks/clause_qa.py
    # --no-concept-absence measures it).
    concept_absence: bool = True
    # The trained query adapter (issue #39; clauselens.heads.query_adapter, clauselens.library.query_vectors): the
    # library's dense channel ranks with the question's MiniLM vector moved towards the passages that answer
    # questions like it. Off: measured not to hold across the development sets, and none is committed
    # (on without one: off with one notice; MiniLM libraries only).
    query_adapter: bool = False
    # "head": the trained cross-encoder of clauselens/heads (issue #39; benchmarks/clause_qa_head.py), off with
    # one notice when its weights are not installed; its abstention threshold (None) is the one head.json
    # recorded, chosen on the training validation split.
    library_rerank: Literal["none", "llm", "head"] = "none"
    library_rerank_top: int = 10
    library_rerank_abstain: float | None = None  # None: off for "llm", head.json's threshold for "head"
    # Weight of the reranker's order against the fused order in the weighted RRF of the top
    # ``library_rerank_top`` (clauselens.library.library.rerank_order; 1 = equal, 0 = fused order kept).
    library_rerank_weight: float = 1.0
    # Run the reranker head's Linear layers in dynamic int8 (clauselens.heads.cross_encoder.quantize_int8).
    library_rerank_int8: bool = True


class Settings(BaseSettings):
    """Everything configurable. Create with ``Settings()`` (reads env) and pass it down."""

    model_config = SettingsConfigDict(env_prefix="CLAUSELENS_", env_nested_delimiter="__", extra="ignore")

    cache_dir: Path = Field(default_factory=default_cache_dir)
    archivist_model: ModelSettings = Field(default_factory=ModelSettings)
    researcher_model: ModelSettings = Field(default_factory=ModelSettings)
    interrogator_model: ModelSettings = Field(default_factory=ModelSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    max_turns: int = 3
    ocr: bool = True
    ocr_dpi: int = 300
    # What reads a PDF's text layer (clauselens.parsing.pdf): "pdfium" (pypdfium2; pages it cannot
    # vouch for go to pdfplumber), "pdfplumber" (pdfminer, the only engine before issue #17), or
    # "auto" = the one chosen by benchmarks/pdf_engines_e2e.py (README "PDF text engines": pdfium, the
    # same clause trees on the 21 CUAD PDFs at ~1/4 of the CPU). ``CLAUSELENS_PDF_ENGINE=pdfplumber``.
    pdf_engine: Literal["auto", "pdfium", "pdfplumber"] = "auto"
    pdf_password: str | None = None
    # Re-use parsed documents from ``store_dir / "documents"`` when a file's sha256 and the
    # parse options (OCR on/off, OCR dpi, schema and parser version) are unchanged
    # (clauselens.parsing.DocumentStore). False (``CLAUSELENS_USE_STORE=false``, CLI
    # ``--no-cache``) parses every file afresh and writes nothing.
    use_store: bool = True
    # Ingest refuses a PDF with more pages than this before parsing any page (IngestError naming
    # the file, its page count and the limit); 0 = no limit. ``CLAUSELENS_MAX_PAGES=5000`` raises
    # it. A text PDF parses at ~16 pages per CPU second with the pdfium engine (15 pages/s wall at
    # load ~1-2 on 2 cores, benchmarks/results/pdf_engines_e2e.json), OCR pages at ~4 s each.
    max_pages: int = 2000
    # Ingest refuses a text file over this many MB (10^6 bytes) before reading it, and a Word file
    # whose extracted text is over it (IngestError naming the file, its size and the limit); 0 = no
    # limit. ``CLAUSELENS_MAX_TEXT_MB=50`` raises it. Parsing is linear, ~0.7 CPU-s per MB
    # (benchmarks/results/text_ingest_scale.json: 10 MB in 11 s wall on a busy 2-core machine), but
    # embedding the passages of 10 MB (~20k clauses) already takes ~15 min; the largest CUAD
    # contract is 0.23 MB.
    max_text_mb: float = 10.0
    # Issue #42: worker processes that read the PDFium pages of one PDF of >= 8 pages
    # (``clauselens.parsing.pdf``; 1 = none, in this process; never more than the CPU count). On the idle
    # 2-core machine 2 workers read the 21 CUAD PDFs (349 pages) at 28.75 vs 19.68 pages/s wall (median of 3,
    # taking turns; benchmarks/results/library_add_pdf.json run quiet_s8); a single 14-page PDF pays ~0.15 s
    # for the pool's start. ``CLAUSELENS_PDF_WORKERS=1`` reads in this process.
    pdf_workers: int = Field(default=2, ge=1)
    # Issue #42: ONNX Runtime intra-op threads of MiniLM (library add and search;
    # ``clauselens.retrieval.embedders``; idle threads sleep, ``ONNX_SPIN``); 0 = ONNX Runtime's own choice
    # (one per core, busy-waiting). Threads never change a vector (bit-identical at 1, 2 and 0). Adding one
    # agreement at 520k passages (load ~5.5, 8 adds each, taking turns): 2 threads 0.92 [0.65, 1.18] of 1
    # thread's wall at 1.06x its CPU; 0 took 1.51x the wall (benchmarks/results/library_scale_replay.json,
    # add run threads_s7). The PyTorch fallback keeps torch's thread count. ``CLAUSELENS_EMBED_THREADS=1``.
    embed_threads: int = Field(default=2, ge=0)
    # Optional LLM pass over clause trees the rules flag (unstructured, numbering breaks):
    # the Archivist model may re-parent nodes (parent/level/path only; text and spans never
    # change), ``clauselens.agents.archivist.repair_tree``. Off by default (``CLAUSELENS_ARCHIVIST_LLM_REPAIR=true``).
    archivist_llm_repair: bool = False
    # After the report is built, the Interrogator model gives a supports / contradicts / unrelated
    # verdict on each key finding that passed the deterministic support checks (one short call per
    # finding; ``clauselens.agents.interrogator.check_support``). ``CLAUSELENS_SUPPORT_CHECK=false``
    # keeps only the deterministic checks (the report then says which findings the model did not check).
    support_check: bool = True
    # "How is 'X' defined" with X's definition among the passages: the draft quotes the definition
    # (one finding per agreement) without a model call (``clauselens.agents.definitions``).
    # ``CLAUSELENS_EXTRACTIVE_DEFINITIONS=false`` lets the model draft it like any question.
    extractive_definitions: bool = True
    # What a report shows as a fact (issue #19): "quotes" -- only the verified quotes of the key
    # findings that passed the support checks, word for word from the documents; the model's
    # statement beside each and its answer are shown as its *reading* of them
    # (``clauselens.reports.build.quoted_facts``, ``READING_PREFIX``). "claims" -- the model's
    # statements themselves are shown as cited facts once their checks pass (the rule before this
    # setting). With the default 1.5B model, 24 of 99 such statements were unsupported in the five
    # out-of-sample runs of ``benchmarks/answers_e2e.py`` (README "Trust"), so "quotes" is the
    # default; ``CLAUSELENS_FACTS=claims`` for a stronger verdict model on a server.
    facts: Literal["quotes", "claims"] = "quotes"
    # Issue #38: a question that names a clause number is answered by quoting that clause by rule; the
    # model then writes one short reading of it (``clauselens.agents.delivery.write_reading``).
    # ``CLAUSELENS_READING=false`` (``ask --no-reading``) skips that call: the quote alone, no model call.
    reading: bool = True
    # Issue #38: decline a quick-depth report when the model's reading judges that none of retrieval's best clauses
    # answers the question (``LeadReading.answered`` false; the clauses shown as the nearest, not as facts). Off:
    # the judgement is a knowledge gap. Measured (benchmarks/results/reading_replay_stored.json, answers_e2e
    # s11_lay_partial): on the stored dev runs the flag fires on 16 of 28 unanswerable lead reports but also on 11 of
    # 49 answerable ones whose gold clause was shown (yes/no questions read "No"); asked before the answer, it
    # declined 6 of the first 8 lay paraphrase questions (gold shown 5 -> 2). ``CLAUSELENS_READING_DECLINES=true``.
    reading_declines: bool = False
    # Issue #38: a retrieved clause leads the report ("The clauses that speak to this") only when its
    # trained relevance head's P(relevant) (``Passage.scores["head"]``) reaches this; passages without a
    # head score lead by retrieval's ranking alone (the library's own abstention ran before).
    lead_min_relevance: float = 0.5
    # Issue #38: how far the Interrogator goes for a question that names no clause and asks no definition.
    # "quick" (default): the question as asked is researched once (no decomposition, no search plan),
    # retrieval's best clauses for it are quoted by rule ("The clauses that speak to this") and the model
    # writes one short reading of them -- one model call, none with ``reading`` off; no clause passing the
    # relevance bar declines without a call. "full": the agent loop -- decompose, research (with the
    # Researcher's search plan), draft, verify, decide, up to ``max_turns`` rounds -- for a stronger model
    # on a server (``CLAUSELENS_DEPTH=full``, ``ask --depth full``). On this project's 2-core CPU the
    # loop took a median 216 s per paraphrase question with the 1.5B model (docs/BENCHMARKS.md).
    depth: Literal["quick", "full"] = "quick"
    # Issue #40: grid yes/no columns of a CUAD category are answered by the clause presence head
    # (``clauselens.grid.presence``, no model call) when it is installed; it measured better than the 1.5B
    # (benchmarks/results/cuad_grid_yesno_cuad21_presence.json). ``CLAUSELENS_GRID_PRESENCE=false`` or
    # ``grid --no-presence`` asks the model instead.
    grid_presence: bool = True
    # Issue #45: a yes/no cell that neither the agreement's sentences (``grid.yes_no``) nor the trained heads decide is left
    # *unverified* for a reviewer, with no model call: after the grid's checks the default 1.5B's answers to such cells were
    # wrong 23 times in the 48 with a keyed Yes/No on seven keyed dev sets (dev12-dev18; docs/BENCHMARKS.md). ``CLAUSELENS_GRID_YES_NO_MODEL=true`` or
    # ``grid --yes-no-model`` asks the model (a stronger one on a server), its answer checked against its quote.
    grid_yes_no_model: bool = False
    # Issue #40: who judges "does this quote support this claim" after the deterministic checks: "llm" -- the
    # Interrogator model; "head" -- the trained support head (``clauselens.heads.support``, no model call; the
    # model's verdict when the head is not installed, said once). The committed head, on the 123 hand-labelled
    # findings the 1.5B was asked, passed 12/21 unsupported (1.5B 15/21) but rejected 23/102 supported (1.5B 6/102)
    # (benchmarks/results/support_verdicts_head.json), so "llm" stays the default; CLAUSELENS_SUPPORT_VERDICT=head.
    support_verdict: Literal["head", "llm"] = "llm"

    @property
    def models_dir(self) -> Path:
        """Where joined GGUF files are cached."""
        return self.cache_dir / "models"

    @property
    def store_dir(self) -> Path:
        """Where parsed documents and indexes are persisted."""
        return self.cache_dir / "store"

    def with_precedent_bank(self, bank: Path | str) -> "Settings":
        """A copy with ``retrieval.precedent_bank = bank`` and the ``precedents`` tool added to
        the Researcher's tools. Raises :class:`~clauselens.errors.ConfigError` if ``bank`` is
        not a file."""
        from clauselens.errors import ConfigError

        p = Path(bank).expanduser()
        if not p.is_file():
            raise ConfigError(f"precedent bank: no such file: {bank} (expected a ContractNLI-format JSON, "
                              "e.g. ../shared/data/contractnli/dev.json)")
        tools = list(self.retrieval.tools) + ([] if "precedents" in self.retrieval.tools else ["precedents"])
        return self.model_copy(update={"retrieval": self.retrieval.model_copy(update={"precedent_bank": p, "tools": tools})})

    def model_for(self, agent: AgentName) -> ModelSettings:
        """The :class:`ModelSettings` of one agent."""
        return {"archivist": self.archivist_model, "researcher": self.researcher_model,
                "interrogator": self.interrogator_model}[agent]

    def with_model(self, **overrides: object) -> "Settings":
        """A copy with the same overrides applied to all three agents' models
        (e.g. ``backend="openai", base_url=...`` from the CLI's ``--base-url``)."""
        upd = {f"{a}_model": self.model_for(a).model_copy(update=overrides) for a in AGENT_NAMES}
        return self.model_copy(update=upd)
