"""The five generators and their judges, registered in core (core imports none of them: no cycle)."""
from .core import GENERATORS, JUDGES
from .logs import judge_logs, logs_case
from .paths import judge_paths, paths_case
from .resource import judge_resource, resource_case
from .syntax import judge_syntax, syntax_case
from .yaml_inputs import judge_yaml, yaml_case

GENERATORS.update({
    "syntax": syntax_case, "resource": resource_case, "paths": paths_case, "yaml": yaml_case, "logs": logs_case})
JUDGES.update({
    "syntax": judge_syntax, "resource": judge_resource, "paths": judge_paths, "yaml": judge_yaml, "logs": judge_logs})
