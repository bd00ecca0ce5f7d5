"""The computer opponents' accounts: one bot per game (Shuuro's also plays Mini-Shuuro)."""

from django.db import migrations

BOTS = ("carolo-bot", "carge-bot", "rococo-bot", "shuuro-bot")


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for name in BOTS:
        bot, created = User.objects.get_or_create(
            username=name, defaults={"email": f"{name}@bots.invalid", "is_bot": True, "notify": "none"}
        )
        if created:
            bot.password = "!"  # unusable: bots never log in
            bot.save(update_fields=["password"])


def remove_bots(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(username__in=BOTS, is_bot=True).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0004_bot_level"), ("accounts", "0003_vacation")]
    operations = [migrations.RunPython(create_bots, remove_bots)]
