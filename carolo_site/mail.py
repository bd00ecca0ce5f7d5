"""The e-mail backend of the embedded setup: each message to a file and the console."""

from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.core.mail.backends.filebased import EmailBackend as FileBackend


class FileAndConsoleBackend(FileBackend):
    """Writes messages under EMAIL_FILE_PATH (one file per batch) and echoes them."""

    def send_messages(self, email_messages):
        ConsoleBackend(fail_silently=self.fail_silently).send_messages(email_messages)
        return super().send_messages(email_messages)
