"""The rule engine: rules as data (rules/*.yml), check functions registered by name, evaluation."""

from app.audit.rules import (  # noqa: F401  (register)
    checks_chaining,
    checks_pair,
    checks_parameter,
    checks_poison,
    checks_safety,
    checks_shadowing,
    checks_tool,
)
from app.audit.rules.engine import CheckResult, IgnoredRule, RuleResults, evaluate
from app.audit.rules.registry import CHECKS, Target
from app.audit.rules.ruleset import Rule, RuleSet, load_rules

__all__ = [
    "CHECKS",
    "CheckResult",
    "IgnoredRule",
    "Rule",
    "RuleResults",
    "RuleSet",
    "Target",
    "evaluate",
    "load_rules",
]
