"""The staff's review of the chat messages players report: open reports first, each
with the message, its author, the reporter and the game, and on its page the
messages around it.  The staff dismiss a report, mark it acted on, or close the
author's account (games.chat.handle_reports)."""

from django.contrib import admin, messages
from django.db.models import Case, Value, When
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from games import chat
from games.models import ChatReport

Status = ChatReport.Status


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "status", "reason", "text", "author", "reporter", "game")
    list_filter = ("status", "reason")
    list_select_related = ("message__author", "reporter")
    ordering = (Case(When(status=Status.OPEN, then=Value(0)), default=Value(1)).asc(), "-id")
    actions = ("dismiss", "mark_acted", "close_author_account")
    fields = (
        "status",
        "reason",
        "created_at",
        "reporter",
        "author",
        "game",
        "context",
        "handled_by",
        "handled_at",
    )
    readonly_fields = fields  # a report changes only by the actions

    def has_add_permission(self, request) -> bool:
        return False  # players make reports, from the chat

    @admin.display(description="message")
    def text(self, report: ChatReport) -> str:
        return Truncator(report.message.text).chars(80)

    @admin.display(description="author")
    def author(self, report: ChatReport):
        return report.message.author

    @admin.display(description="game")
    def game(self, report: ChatReport) -> str:
        game_id = report.message.game_id
        return format_html('<a href="{}">{}</a>', reverse("game", args=[game_id]), game_id)

    @admin.display(description="messages around it")
    def context(self, report: ChatReport) -> str:
        lines = (
            _line(line, line.pk == report.message_id) for line in chat.context_of(report.message)
        )
        return format_html("<ol>{}</ol>", format_html_join("", "{}", ((line,) for line in lines)))

    @admin.action(description="Dismiss the selected reports", permissions=["change"])
    def dismiss(self, request, queryset):
        self._handled(request, chat.handle_reports(queryset, request.user, Status.DISMISSED))

    @admin.action(description="Mark the selected reports acted on", permissions=["change"])
    def mark_acted(self, request, queryset):
        self._handled(request, chat.handle_reports(queryset, request.user, Status.ACTED))

    @admin.action(
        description="Close the accounts of the reported messages' authors",
        permissions=["close_account"],
    )
    def close_author_account(self, request, queryset):
        closed = chat.handle_reports(queryset, request.user, Status.ACTED, close_authors=True)
        self._handled(request, closed)

    def has_close_account_permission(self, request) -> bool:
        # closing an account changes a user: the staff member needs that permission too
        return self.has_change_permission(request) and request.user.has_perm("accounts.change_user")

    def _handled(self, request, count: int) -> None:
        self.message_user(request, f"{count} report(s) handled.", messages.SUCCESS)


def _line(line, reported: bool) -> str:
    """A message as an item of the list around a reported one, which is marked."""
    when = timezone.localtime(line.created_at).strftime("%Y-%m-%d %H:%M")
    text = format_html("<b>{}</b> {}: {}", line.author.username, when, line.text)
    return format_html("<li><mark>{}</mark></li>" if reported else "<li>{}</li>", text)
