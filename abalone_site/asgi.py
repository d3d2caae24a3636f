"""ASGI entry point: Django's WSGI handler for HTTP (see ``wsgi_over_asgi``), Channels for
WebSockets."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "abalone_site.settings")
django_http_app = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from .routing import websocket_urlpatterns  # noqa: E402
from .wsgi_over_asgi import WsgiOverAsgi  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": WsgiOverAsgi(django_http_app),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
