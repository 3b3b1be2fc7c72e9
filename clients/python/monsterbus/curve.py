"""CURVE certificates as `gateway keys init DIR` writes them (ZeroMQ's ZPL text: a `metadata`
section with `name` and `role`, a `curve` section with `public-key` and, in NAME.key_secret,
`secret-key`, each 40 characters of Z85), and the settings a client takes from the environment
as the Swift processes do: BUS_KEYS_DIR, BUS_CLIENT_CERT, BUS_SERVER_KEY."""
import os
import re


class CurveError(Exception):
    """A certificate or key that cannot be used, naming the file or variable."""


class Certificate:
    def __init__(self, public_key, secret_key=None, metadata=None, path=None):
        self.public_key = public_key
        self.secret_key = secret_key
        self.metadata = metadata or {}
        self.path = path

    @property
    def role(self):
        """The role the bus grants the holder (`gateway` when the certificate names none)."""
        return self.metadata.get("role", "gateway")

    @classmethod
    def load(cls, path):
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise CurveError(f"cannot read the certificate {path}: {error.strerror}") from None
        sections = {}
        section = None
        for line in text.splitlines():
            # A comment is a line of its own: `#` is a Z85 digit, so it may be inside a key.
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line.startswith((" ", "\t")):
                section = line.split("#", 1)[0].strip()
                continue
            found = re.match(r'\s+([A-Za-z0-9_-]+)\s*=\s*"([^"]*)"', line)
            if found and section is not None:
                sections.setdefault(section, {})[found.group(1)] = found.group(2)
        curve = sections.get("curve", {})
        public = curve.get("public-key")
        if public is None or len(public) != 40:
            raise CurveError(f"{path}: no public-key of 40 Z85 characters in its curve section (create keys with `gateway keys init DIR`)")
        secret = curve.get("secret-key")
        if secret is not None and len(secret) != 40:
            raise CurveError(f"{path}: its secret-key is not 40 Z85 characters")
        return cls(public, secret, sections.get("metadata", {}), path)


class CurveSettings:
    """A client's own keys and the bus's public key."""

    def __init__(self, certificate, server_key):
        self.certificate = certificate
        self.server_key = server_key

    @classmethod
    def from_environment(cls, environment=None, component="gateway"):
        """The settings in `environment` (default os.environ), or None when none of the variables
        is set (plaintext). The client's certificate is BUS_CLIENT_CERT, else
        $BUS_KEYS_DIR/COMPONENT.key_secret; the bus's key BUS_SERVER_KEY, else $BUS_KEYS_DIR/bus.key."""
        environment = os.environ if environment is None else environment
        folder = environment.get("BUS_KEYS_DIR") or None
        certificate_path = environment.get("BUS_CLIENT_CERT") or None
        server_key = environment.get("BUS_SERVER_KEY") or None
        if folder is None and certificate_path is None and server_key is None:
            return None
        if certificate_path is None:
            if folder is None:
                raise CurveError("BUS_SERVER_KEY is set but there is no client certificate: set BUS_KEYS_DIR or BUS_CLIENT_CERT")
            certificate_path = os.path.join(folder, component + ".key_secret")
        certificate = Certificate.load(certificate_path)
        if certificate.secret_key is None:
            raise CurveError(f"{certificate_path} has no secret-key: it is a public certificate, a .key_secret file is needed")
        if server_key is None:
            if folder is None:
                raise CurveError("BUS_CLIENT_CERT is set but the bus's public key is unknown: set BUS_SERVER_KEY or BUS_KEYS_DIR")
            server_key = Certificate.load(os.path.join(folder, "bus.key")).public_key
        elif len(server_key) != 40:
            raise CurveError("BUS_SERVER_KEY must be the bus's public key, 40 characters of Z85 (as in bus.key's public-key)")
        return cls(certificate, server_key)

    def apply(self, socket):
        """Makes `socket` a CURVE client of the bus with these keys."""
        socket.curve_publickey = self.certificate.public_key.encode("ascii")
        socket.curve_secretkey = self.certificate.secret_key.encode("ascii")
        socket.curve_serverkey = self.server_key.encode("ascii")
