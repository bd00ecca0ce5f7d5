import pytest
from django.db import IntegrityError, OperationalError
from django.test import RequestFactory

from carolo_site.middleware import DatabaseUnavailableMiddleware


def handle(exception):
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    return middleware.process_exception(RequestFactory().get("/"), exception)


@pytest.mark.django_db
def test_an_unreachable_database_answers_503_with_retry_after():
    response = handle(OperationalError("connection failed: the database system is starting up"))
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert b"briefly unavailable" in response.content


def test_other_errors_are_left_alone():
    assert handle(IntegrityError("duplicate key")) is None
    assert handle(ValueError("bug")) is None
