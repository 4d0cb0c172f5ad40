"""Playbook review (issue #44): an agreement checked against a firm's standard positions."""
