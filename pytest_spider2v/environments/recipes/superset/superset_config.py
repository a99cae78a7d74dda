# Superset configuration of the spider2v image (SUPERSET_CONFIG_PATH points here).
# Like the original benchmark's docker config: CSRF, Talisman and secure cookies are off so that
# the REST API answers plain curl calls with a bearer token; metadata in SQLite under ~/.superset.
import os

SECRET_KEY = "spider2v-superset-not-a-secret-0123456789"
DATA_DIR = os.path.join(os.environ.get("HOME", "/home/user"), ".superset")
SQLALCHEMY_DATABASE_URI = "sqlite:////home/user/.superset/superset.db?check_same_thread=false"
WTF_CSRF_ENABLED = False
TALISMAN_ENABLED = False
SESSION_COOKIE_SECURE = False
SESSION_COOKIE_SAMESITE = "Lax"
# SQLite data sources (the sales database) are refused unless this is off.
PREVENT_UNSAFE_DB_CONNECTIONS = False


# File upload (+ > Data > Upload CSV to database). The sales database (SQLite) takes uploads into
# its one schema, "main", or none; every other database keeps Superset's default (any schema the
# user may use), as on the original benchmark's Superset.
def ALLOWED_USER_CSV_SCHEMA_FUNC(database, user):  # noqa: N802  (Superset's setting)
    return [None, "main"] if database.backend == "sqlite" else []


# Superset 4.1's upload dialog sends the text "undefined" as the schema when none is picked
# (apache/superset#36305): the upload fails ('schema "undefined" does not exist'). Superset 3.1,
# which the original tasks ran, uploaded such a file into the database's default schema and
# registered the dataset without a schema (a chart on it shows the data source "games", not
# "public.games"). Upload forms lose a schema that only says "not chosen", so that a dialog left
# without one does the same here.
UPLOAD_ENDPOINTS = ("/csv_upload/", "/excel_upload/", "/columnar_upload/")
UNCHOSEN_SCHEMA = ("undefined", "null", "")


def without_unchosen_schema(fields):
    """The (key, value) pairs of an upload form, less a ``schema`` that names no schema."""
    return [(key, value) for key, value in fields
            if not (key == "schema" and str(value).strip() in UNCHOSEN_SCHEMA)]


def FLASK_APP_MUTATOR(app):  # noqa: N802  (Superset's setting)
    from flask import request
    from werkzeug.datastructures import ImmutableMultiDict

    @app.before_request
    def drop_unchosen_upload_schema():
        if request.method == "POST" and request.path.endswith(UPLOAD_ENDPOINTS) and "schema" in request.form:
            # werkzeug caches the parsed form in the request's __dict__; replace it there
            request.__dict__["form"] = ImmutableMultiDict(without_unchosen_schema(request.form.items(multi=True)))


SUPERSET_WEBSERVER_PORT = 8088
SUPERSET_WEBSERVER_TIMEOUT = 120
ROW_LIMIT = 5000
# Offline and quiet: no telemetry, no thumbnails or alerts (they need Celery), no examples.
FEATURE_FLAGS = {
    "ALERT_REPORTS": False,
    "THUMBNAILS": False,
    "DASHBOARD_RBAC": False,
    "ENABLE_TEMPLATE_PROCESSING": False,
}
SCHEDULED_QUERIES = {}
LOG_LEVEL = "WARNING"
ENABLE_PROXY_FIX = False
