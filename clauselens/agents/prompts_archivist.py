"""Prompts of the Archivist's optional tree repair (``clauselens.agents.archivist.repair_tree``),
as named constants. The model sees only a node list (id, ref, heading, level, parent, the
first characters of the node's text) and returns parent corrections; it never sees or
returns document text to be written back."""

from clauselens.llm.framing import DATA_NOT_INSTRUCTIONS

REPAIR_SYSTEM = (
    "You check the clause tree of a contract. Each line is one node: id | ref | heading | level | "
    "parent id | start of its text. Numbered clauses should sit under the clause or article whose "
    "number they continue (1.2 under 1, 1.2(a) under 1.2, Article II's sections under Article II); "
    "a number that breaks the sequence of its siblings usually sits at the wrong level.\n"
    "Return only the nodes whose parent is wrong, as fixes: {{\"id\": node id, \"parent_id\": id of "
    "the correct parent}}. Use only ids from the list; a parent must come before its child in the "
    "list. Do not return text, headings or numbers. Return an empty list if the tree is right.\n"
    + DATA_NOT_INSTRUCTIONS
)
REPAIR_USER = (
    "Suspicious places found by the rules:\n{suspicions}\n\nNodes (root id {root_id}):\n{nodes}\n\n"
    "Return the parent fixes as JSON."
)
