"""CURVE certificates as `gateway keys init` writes them, and the settings from the environment."""
import os

import pytest

from monsterbus import Certificate, CurveError, CurveSettings

PUBLIC = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
SECRET = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def test_a_secret_certificate_with_a_hash_in_its_key_reads_whole(tmp_path):
    key_with_hash = "#" + PUBLIC[1:]
    path = write(tmp_path, "me.key_secret", "#   ZeroMQ CURVE **Secret** Certificate\n\nmetadata\n    name = \"me\"\n    role = \"gateway\"\n"
                 f"curve\n    public-key = \"{key_with_hash}\"\n    secret-key = \"{SECRET}\"\n")
    certificate = Certificate.load(path)
    assert certificate.public_key == key_with_hash and certificate.secret_key == SECRET
    assert certificate.metadata == {"name": "me", "role": "gateway"} and certificate.role == "gateway"


def test_bad_certificates_and_settings_are_refused_naming_what_is_wrong(tmp_path):
    with pytest.raises(CurveError, match="cannot read the certificate"):
        Certificate.load(os.path.join(tmp_path, "none.key"))
    short = write(tmp_path, "short.key", "curve\n    public-key = \"abc\"\n")
    with pytest.raises(CurveError, match="no public-key of 40"):
        Certificate.load(short)
    public = write(tmp_path, "gateway.key_secret", f"curve\n    public-key = \"{PUBLIC}\"\n")
    with pytest.raises(CurveError, match="has no secret-key"):
        CurveSettings.from_environment({"BUS_CLIENT_CERT": public, "BUS_SERVER_KEY": PUBLIC})
    with pytest.raises(CurveError, match="no client certificate"):
        CurveSettings.from_environment({"BUS_SERVER_KEY": PUBLIC})
    assert CurveSettings.from_environment({}) is None


def test_the_keys_gateway_keys_init_made_for_the_stack_are_read(monster_bus):
    folder = monster_bus.environment.get("BUS_KEYS_DIR")
    if folder is None:
        pytest.skip("the stack is not on CURVE")
    settings = CurveSettings.from_environment({"BUS_KEYS_DIR": folder})
    assert settings.certificate.role == "gateway" and len(settings.certificate.secret_key) == 40
    assert settings.server_key == Certificate.load(os.path.join(folder, "bus.key")).public_key
    assert Certificate.load(os.path.join(folder, "roster.key_secret")).role == "roster"
