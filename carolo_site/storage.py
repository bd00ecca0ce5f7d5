"""Static files as production serves them: CSS minified, then hashed and compressed."""

import rcssmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage, with each stylesheet minified (rcssmin) as it is
    collected, before its URLs are rewritten and its name hashed: comments and
    indentation were about a quarter of the bytes of a game page's CSS."""

    def _save(self, name, content):
        if name.endswith(".css"):
            content.seek(0)  # hashing the name read it to the end
            content = ContentFile(rcssmin.cssmin(content.read().decode()).encode())
        return super()._save(name, content)
