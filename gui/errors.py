"""The core's user-facing errors in the interface language.

The core raises :class:`~tsume_studio.core.errors.CoreError` with a code and
parameters; this module holds the Japanese template of each code and formats
it at the GUI boundary (:func:`error_text`).  Nothing here matches English
text: an error without a code (an ``OSError``, a bug) is shown as it is.
"""

from __future__ import annotations

from ..core.errors import MESSAGES, CoreError
from . import i18n

#: Japanese templates by error code (``str.format`` placeholders, as in ``core.errors.MESSAGES``).
JAPANESE: dict[str, str] = {
    "engine.not_found": "エンジンのプログラム {path} がありません",
    "engine.not_executable": "エンジンのプログラム {path} を起動できません: {reason}",
    "engine.no_usiok": "エンジンが {seconds} 秒以内に usi に usiok で答えませんでした",
    "engine.no_readyok": "エンジンが {seconds} 秒以内に isready に readyok で答えませんでした",
    "engine.exited": "エンジンが '{command}' に答える前に終了しました (終了コード {status})",
    "engine.no_answer": "stop を送ってから {seconds} 秒たってもエンジンが checkmate を返しませんでした",
    "engine.not_implemented": "このエンジンには詰み探索がありません (checkmate notimplemented)",
    "engine.bestmove": "エンジンが go mate に checkmate ではなく bestmove で答えました",
    "engine.bad_answer": "エンジンの答えが checkmate の行ではありません: {line}",
    "engine.illegal_move": "エンジンの手順が誤りです: {ply} 手目 ({move}) は指せない手です",
    "engine.no_check": "エンジンの手順が誤りです: 攻方の {ply} 手目 ({move}) が王手ではありません",
    "engine.not_mate": "エンジンの手順が誤りです: {plies} 手で終わりますが詰んでいません",
    "engine.even_line": "エンジンの手順が誤りです: 詰みの手順は奇数手のはずですが {plies} 手です",
    "engine.bad_option": "オプションの行 '{text}' が「名前=値」の形ではありません",
    "record.unknown_extension": "{path} の拡張子 {ext} は棋譜の形式として扱えません。{known} のいずれかにしてください",
    "record.encoding": "ファイルが UTF-8 でも Shift_JIS (cp932) でもありません",
    "record.unknown_text": "知っている形式 (SFEN、KIF、KI2、CSA、BOD) の棋譜ではありません: {start}",
    "record.unencodable": "{text} は {encoding} で書けません。{alternative} で保存してください",
    "position.empty_text": "テキストが空です。SFEN、BOD、KIF の局面を貼り付けてください",
    "position.unknown_file_type": "{path} の種類 {ext} は扱えません。{known} のいずれかにしてください",
    "sfen.fields": "SFEN には 4 つ (盤面、手番、持駒、手数) か 3 つの欄が必要です: {sfen}",
    "record.not_a_line": "{format} の行として読めません",
    "record.not_a_move": "指し手として読めません",
    "record.not_a_move_at": "指し手として読めません: {rest}",
    "record.expected_mark": "{rest} の前に ▲ か △ が必要です",
    "record.out_of_turn": "{mark} の手番ではありません: {rest}",
    "record.text_after_move": "指し手の後ろに余計な文字 {rest} があります",
    "record.move_number": "手数 {ply} が直前の {previous} 手目に続いていません",
    "record.after_terminal": "終局 {word} の後に指し手があります",
    "record.handicap": "手合割 {name} は標準の局面ではなく、盤面図も続いていません",
    "move.not_a_square": "マスではありません: {square}",
    "move.no_previous": "直前の指し手がないのに「同」があります",
    "move.cannot_promote": "{piece}は成れません",
    "move.no_piece": "{square}に手番側の{piece}がありません",
    "move.illegal": "指せない手です ({move})",
    "move.illegal_drop": "{piece}を{square}に打てません",
    "move.no_legal_move": "{square}へ動ける{piece}がありません",
    "move.ambiguous": "{square}へ動ける{piece}が {count} 枚あり、どれか決まりません",
    "move.captures_king": "{move} は{square}の玉を取る手です (手番でない側が王手をかけられています)",
}


def error_text(error: BaseException) -> str:
    """``error`` for people, in the current language: a :class:`CoreError` from its code's template."""
    if isinstance(error, CoreError) and i18n.language() == "ja" and error.code in JAPANESE:
        try:
            text = JAPANESE[error.code].format(**error.params)
        except (KeyError, IndexError):
            return str(error)
        if error.line is not None:   # a line of a record: where, what, and the line itself
            text = f"{error.line} 行目: {text}"
            if error.line_text is not None:
                text += f": 「{error.line_text.strip()}」"
        return text
    return str(error)


def untranslated_codes() -> list[str]:
    """Codes of the core that have no Japanese template (a test keeps this empty)."""
    return sorted(set(MESSAGES) - set(JAPANESE))


__all__ = ["JAPANESE", "error_text", "untranslated_codes"]
