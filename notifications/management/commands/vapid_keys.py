"""``manage.py vapid_keys``: a new VAPID key pair for Web Push (docs/deploy.md): the private key
for the environment (``VAPID_PRIVATE_KEY``, kept as secret as ``SECRET_KEY``), the public key
the browsers subscribe with (the site gives it to them itself)."""

from django.core.management.base import BaseCommand

from core.push_keys import private_key_new, public_key


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push: VAPID_PRIVATE_KEY for the environment."

    def handle(self, *args, **options):
        private = private_key_new()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\n")
        self.stdout.write(f"# public key (the site gives it to browsers): {public_key(private)}\n")
