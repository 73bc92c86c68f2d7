"""Hablar con un modelo real: una petición HTTP con el protocolo de mensajes.

Se carga en una celda con una sola línea:

    exec(open_url(".../runtime/api.py").read())

y deja en tu espacio de nombres:

- enviar(url, cuerpo, cabeceras=None): envía `cuerpo` (un dict) como JSON en un POST a `url`,
  con `cabeceras` (un dict, las que pida el servidor, como una clave) además de las suyas, y
  devuelve la respuesta del servidor, ya leída como dict. Es Python de siempre, urllib.request:
  el mismo código funciona en la página y en tu ordenador, contra cualquier servidor que implemente
  el protocolo (desde la página, si ese servidor permite que ella lea sus respuestas: CORS).
- ErrorDelServidor: lo que lanza enviar cuando no hay respuesta que devolver. .estado es el
  código HTTP (400, 404, 500...), o None si nadie respondió; .motivo, lo que dijo el servidor.
- RespuestaCortada: para quien recibe una respuesta que se quedó sin max_tokens a medias.
  .contenido son los bloques que llegaron; .uso, lo que gastó.
- url_del_modelo(): la dirección del modelo del curso, el que corre en esta página. Fuera de
  la página no hay: lanza ErrorDelServidor y dice que pases url=.
- servidor_propio(): la dirección del servidor que escribiste y confirmaste en la página
  (…/v1/messages), o None si no hay ninguna.

Traducir M a una petición, y la respuesta a bloques, es lo que escribes tú en la lección.
"""

# Usa, de los ficheros que se cargan antes: nada (lo comprueba tests/test_disposicion.py).


import json
import sys


class ErrorDelServidor(Exception):
    """El servidor del modelo no dio una respuesta: .estado es el código HTTP (None si nadie
    respondió) y .motivo, lo que dijo (el mensaje de error del protocolo, si lo trae)."""

    def __init__(self, estado, motivo):
        super().__init__(estado, motivo)
        self.estado, self.motivo = estado, motivo

    def __str__(self):
        if self.estado is None:
            return f"no hay respuesta del modelo: {self.motivo}"
        return f"el servidor del modelo ha respondido {self.estado}: {self.motivo}"


class RespuestaCortada(Exception):
    """La respuesta se cortó al llegar a max_tokens (stop_reason "max_tokens"): .contenido son
    los bloques que llegaron y .uso, lo que gastó. No se le da al bucle: una llamada a medias no
    es una llamada."""

    def __init__(self, contenido, uso=None):
        super().__init__(contenido, uso)
        self.contenido, self.uso = contenido, uso

    def __str__(self):
        n = len(self.contenido) if isinstance(self.contenido, list) else 0
        llegaron = "llegó 1 bloque" if n == 1 else f"llegaron {n} bloques"
        return (f"la respuesta se cortó al llegar a max_tokens ({llegaron}): sube max_tokens "
                f"o pide una respuesta más corta")


def enviar(url, cuerpo, cabeceras=None, espera=120):
    """POST de `cuerpo` como JSON a `url`; devuelve la respuesta del servidor, un dict.

    Si el servidor responde con un error (400, 404, 500...), o nadie responde en `espera`
    segundos, lanza ErrorDelServidor.
    """
    import urllib.error
    import urllib.request

    _urllib_en_la_pagina()
    pedido = urllib.request.Request(
        url,
        data=json.dumps(cuerpo).encode("utf-8"),
        headers={"content-type": "application/json", "anthropic-version": "2023-06-01",
                 **(cabeceras or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(pedido, timeout=espera) as respuesta:
            estado, razon, texto = respuesta.status, respuesta.reason, respuesta.read()
    except urllib.error.HTTPError as error:  # 4xx y 5xx, en Python de siempre
        estado, razon, texto = error.code, error.reason, error.read()
    except OSError as error:  # nadie responde: conexión rechazada, tiempo agotado...
        raise ErrorDelServidor(None, str(getattr(error, "reason", error))) from None
    except Exception as error:  # en la página, un fallo de red llega como error de JavaScript
        if sys.platform != "emscripten":
            raise
        raise ErrorDelServidor(None, str(error)) from None
    texto = texto.decode("utf-8", "replace")
    if not 200 <= estado < 300:
        raise ErrorDelServidor(estado or None, _motivo(texto) or razon or "sin motivo")
    try:
        return json.loads(texto)
    except ValueError:
        raise ErrorDelServidor(estado, f"la respuesta no es JSON: {texto[:80]!r}") from None


def _motivo(texto):
    """El mensaje de un error del protocolo, {"type": "error", "error": {"message": ...}}; si
    el cuerpo no lo es, el cuerpo mismo (en una línea, corto)."""
    try:
        error = json.loads(texto)["error"]
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return error["message"]
    except (ValueError, TypeError, KeyError):
        pass
    texto = " ".join(texto.split())
    return texto if len(texto) <= 200 else texto[:199] + "…"


_URLLIB_EN_LA_PAGINA = False


def _urllib_en_la_pagina():
    """En la página (Pyodide) no hay sockets: pyodide-http hace que urllib.request vaya por
    XMLHttpRequest, como el resto de la página. Se hace una vez, al primer envío; en Python de
    siempre no hace falta, y ni se importa."""
    global _URLLIB_EN_LA_PAGINA
    if sys.platform != "emscripten" or _URLLIB_EN_LA_PAGINA:
        return
    try:
        import pyodide_http
    except ImportError:
        return
    pyodide_http.patch_all()
    _URLLIB_EN_LA_PAGINA = True


def url_del_modelo():
    """La dirección del modelo del curso, el servidor que responde en esta misma página.

    Donde aún no puede responder (fuera de la página, o en una página que el service worker del
    curso todavía no controla), lanza ErrorDelServidor con una frase que dice qué hacer."""
    try:
        import trabajador
    except ImportError:
        raise ErrorDelServidor(
            None, "fuera de la página no hay modelo del curso: pasa url=… con la dirección "
                  "de un servidor que implemente el protocolo de mensajes") from None
    try:
        return trabajador.url_del_modelo()
    except RuntimeError as error:
        raise ErrorDelServidor(None, str(error)) from None


def servidor_propio():
    """La dirección (…/v1/messages) del servidor que escribiste y confirmaste en la página, o
    None si no has confirmado ninguno (o fuera de la página)."""
    try:
        import trabajador
    except ImportError:
        return None
    return trabajador.servidor_propio()
