"""Ways people use clauselens interactively: a terminal chat with memory
(:mod:`clauselens.interfaces.chat`), an MCP server (:mod:`clauselens.interfaces.mcp_server`)
and a web UI (:mod:`clauselens.interfaces.web`). All three drive one
:class:`clauselens.interfaces.session.ChatSessions` service; nothing here is imported by
the core packages (parsing, retrieval, agents, graph, reports)."""
