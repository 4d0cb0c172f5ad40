# The two commands a new user needs (each does all setup first; both are idempotent):
#   make demo   - answer a question about the bundled real contract with the default local model
#   make test   - run the test suite
SHELL := /bin/bash
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
DEMO_PDF := examples/contracts/driven_deliveries_consulting_agreement.pdf
DEMO_Q := How can either party terminate this agreement, and how much notice is required?

.PHONY: setup demo test
setup:
	scripts/setup.sh demo

demo:
	scripts/setup.sh demo
	.venv/bin/clauselens ask "$(DEMO_PDF)" "$(DEMO_Q)" --out out/demo

test:
	scripts/setup.sh test
	.venv/bin/python -m pytest -q -p no:cacheprovider
