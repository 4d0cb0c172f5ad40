"""Trained heads (issue #39): small models fine-tuned in this project from provisioned weights.

``base.py`` says where a head's weights live and loads them offline (sha256-checked, with the
tokenizer of the provisioned all-MiniLM-L6-v2 package); each head adds its own inference module
(``cross_encoder.py``: the relevance reranker). A head that is not installed is reported once and
its feature is off: the product runs without any head.
"""
