"""One-click unsubscribe from the links and List-Unsubscribe headers of our e-mails."""

from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games import notify


@csrf_exempt  # the signed token is the credential; mail clients POST without a session
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """GET asks for confirmation; POST (the button, or RFC 8058 one-click) applies."""
    user = notify.user_from_token(token)
    if user is None:
        return render(request, "emails/unsubscribe.html", {"invalid": True}, status=400)
    done = request.method == "POST"
    if done and user.notify != user.Notify.NONE:
        user.notify = user.Notify.NONE
        user.save(update_fields=["notify"])
    return render(request, "emails/unsubscribe.html", {"player": user, "done": done})
