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
# CSV upload into the sales database is allowed (Settings > Database connections > Upload).
ALLOWED_USER_CSV_SCHEMA_FUNC = lambda database, user: [None, "main"]  # noqa: E731  (Superset's setting)
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
