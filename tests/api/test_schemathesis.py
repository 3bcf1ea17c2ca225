"""Property-based run of the whole API against openapi.yaml: no 5xx, no response off the spec."""
import schemathesis
from hypothesis import HealthCheck, settings

from referee.app import create_app

schema = schemathesis.openapi.from_wsgi("/openapi.yaml", create_app({"TESTING": True}))


@schema.parametrize()
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_keeps_its_contract(case):
    case.call_and_validate()
