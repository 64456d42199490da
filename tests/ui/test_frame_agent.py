"""posviz.ui.frame.is_phone_agent: which browsers get the chart margins fitted on a phone
(style.one_pass). The end-to-end check, a phone's Chromium drawing every chart in one pass, is
tests/app/test_one_pass.py."""
from posviz.ui.frame import is_phone_agent


def test_a_phone_is_told_by_mobi_in_its_user_agent():
    phones = ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
              "Version/17.5 Mobile/15E148 Safari/604.1",
              "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 "
              "Mobile Safari/537.36",
              "Mozilla/5.0 (Android 14; Mobile; rv:131.0) Gecko/131.0 Firefox/131.0"]
    others = ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
              "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 "
              "Safari/537.36",                                                   # an Android tablet
              "", None]
    assert all(is_phone_agent(ua) for ua in phones)
    assert not any(is_phone_agent(ua) for ua in others)
