from allauth.account.models import EmailAddress
from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_PASSWORD = "carolo-demo-2024"


class Command(BaseCommand):
    help = "Creates the demo players alice and bob, with verified e-mail addresses."

    def handle(self, *args, **options):
        for username in ("alice", "bob"):
            email = f"{username}@example.com"
            user, created = User.objects.get_or_create(username=username, defaults={"email": email})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            EmailAddress.objects.update_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )
        self.stdout.write(f"Demo players: alice and bob, password {DEMO_PASSWORD!r}")
