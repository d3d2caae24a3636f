"""ASGI entry point: Django's WSGI handler for HTTP (see ``wsgi_over_asgi``), Channels for
WebSockets, and the process's lifespan: at start-up each web process starts its deadline
watcher (``core.deadlines``), which adjudicates flags with nobody watching.

The cyclic garbage collector is tuned here, for web processes only. Measured under the games
benchmark, Python's defaults collected the youngest generation every few requests and the whole
heap (150,000 objects of Django, the engine's move tables and the games kept between moves)
every few seconds: about 7 % of the web CPU, with pauses of up to a quarter of a second that stop
every request in the process. So everything loaded at start is frozen out of the collector
(``gc.freeze``) and the youngest generation is collected every ``GC_GEN0_THRESHOLD`` allocations
(default 50,000; 0 keeps Python's 700), which still collects the cycles requests leave behind.
What lives longer (a socket's objects) is collected every ``MEMORY_COLLECT_SECONDS`` by the
lifespan's memory keeper (``core.memory``), which also gives freed memory back to the system.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "abalone_site.settings")
django_http_app = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from core.wsgi_over_asgi import WsgiOverAsgi  # noqa: E402

from .routing import websocket_urlpatterns  # noqa: E402


def _tune_garbage_collector() -> None:
    threshold = int(os.environ.get("GC_GEN0_THRESHOLD", "50000"))
    if not threshold:
        return
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - load every view module now, before the freeze
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, 50, 100)


_tune_garbage_collector()


class Lifespan:
    """ASGI ``lifespan`` events of a web process; every other scope goes to ``app``.

    uvicorn sends them with ``--lifespan on`` or ``auto`` (its default); ``manage.py serve``
    turns them on. The test suite's servers run with ``lifespan="off"``: tests control time.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        import asyncio

        from asgiref.sync import sync_to_async
        from django.conf import settings

        from core.deadlines import start_watcher, stop_watcher
        from core.memory import keep_memory

        keeper = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                start_watcher()
                if settings.MEMORY_COLLECT_SECONDS > 0:
                    keeper = asyncio.create_task(keep_memory(settings.MEMORY_COLLECT_SECONDS))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if keeper is not None:
                    keeper.cancel()
                await sync_to_async(stop_watcher, thread_sensitive=False)()
                await send({"type": "lifespan.shutdown.complete"})
                return


application = Lifespan(
    ProtocolTypeRouter(
        {
            "http": WsgiOverAsgi(django_http_app),
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
