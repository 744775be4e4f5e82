"""The GitHub Action (`action.yml`): a pull request's before/after run inside the repository's own workflow.

`context` reads the run (GitHub's environment variables and its `pull_request` event payload), `run` audits the
merge base against the head from the workflow's checkout with git plumbing (`toolchoice diff --git`), posts the
App's sticky comment with the workflow's token, writes the job summary, the SARIF file and the step outputs;
`__main__` is the entry point `python -m app.action`. Nothing of the pull request is installed or run.
"""
