"""Lesson 6's Python side: runtime/api.py (``enviar`` and its errors) and the challenge
«modelo-api» (the adapter ``ModeloAPI``).

``enviar`` and the reference ``ModeloAPI`` (challenges/modelo-api/solucion.py, executed in a
page's namespace as the grader does) run against a real HTTP server on 127.0.0.1 (a thread of
this process) that records each request and answers what the test says: a response, a protocol
error, a 404, a cut response; and against a port where nobody listens. The two tests the
lesson shows in a cell (the translation of a two-turn M and the cut response, with the transport
replaced) are here too. No test reaches a real model or leaves 127.0.0.1.
"""

from __future__ import annotations

import copy
import http.client
import io
import json
import socket
import sys
import threading
import time
import types
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import challenges
from runtime import espacio

RAIZ = Path(__file__).resolve().parent.parent
DESAFIO = "modelo-api"
CARPETA = RAIZ / "challenges" / DESAFIO
SOLUCION = (CARPETA / "solucion.py").read_text(encoding="utf-8")
INICIAL = (CARPETA / "inicial.py").read_text(encoding="utf-8")
ERRORES = challenges.errores_conocidos(DESAFIO)
RUNTIME = ("entorno", "guionizado", "escenarios", "permisos", "api")


def pagina():
    """A page's namespace: the runtime as conf.py loads it, and the reference ModeloAPI."""
    ns = espacio(*RUNTIME)
    exec(compile(SOLUCION, "solucion.py", "exec"), ns)
    return ns


# ------------------------------------------------------------ a server on 127.0.0.1


class Servidor:
    """A real HTTP server on 127.0.0.1 (port 0), in a thread. ``respuestas``: what it answers,
    in order: (status, body), body a dict (sent as JSON) or bytes; ``peticiones``: what it got,
    (method, path, headers, parsed JSON body). ``espera``: seconds to wait before answering."""

    def __init__(self):
        self.respuestas: list[tuple[int, object]] = []
        self.peticiones: list[tuple[str, str, dict, object]] = []
        self.espera = 0.0
        servidor = self

        class Manejador(BaseHTTPRequestHandler):
            def do_POST(self):
                largo = int(self.headers.get("content-length", 0))
                crudo = self.rfile.read(largo)
                servidor.peticiones.append(("POST", self.path, dict(self.headers.items()),
                                            json.loads(crudo)))
                time.sleep(servidor.espera)
                estado, cuerpo = servidor.respuestas.pop(0)
                datos = cuerpo if isinstance(cuerpo, bytes) else json.dumps(cuerpo).encode()
                self.send_response(estado)
                self.send_header("content-type", "application/json" if not isinstance(
                    cuerpo, bytes) else "text/plain")
                self.send_header("content-length", str(len(datos)))
                self.end_headers()
                self.wfile.write(datos)

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Manejador)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1/messages"
        self.hilo = threading.Thread(target=self.http.serve_forever, args=(0.05,), daemon=True)
        self.hilo.start()

    def cerrar(self):
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def servidor():
    s = Servidor()
    yield s
    s.cerrar()


def puerto_sin_nadie() -> int:
    """A port of 127.0.0.1 where nobody listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def respuesta(contenido, stop_reason="end_turn", entrada=30, salida=7):
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "de-prueba",
            "content": contenido, "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": entrada, "output_tokens": salida,
                      "cache_read_input_tokens": 0}}


def error_del_protocolo(tipo, mensaje):
    return {"type": "error", "error": {"type": tipo, "message": mensaje}}


# ------------------------------------------------------------------ enviar


def test_enviar_hace_un_post_de_json_y_devuelve_la_respuesta(servidor):
    ns = espacio("api")
    dada = respuesta([{"type": "text", "text": "hola"}])
    servidor.respuestas.append((200, dada))
    cuerpo = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "¿sí?"}]}
    assert ns["enviar"](servidor.url, cuerpo, {"x-api-key": "clave"}) == dada
    [(metodo, ruta, cabeceras, recibido)] = servidor.peticiones
    assert (metodo, ruta, recibido) == ("POST", "/v1/messages", cuerpo)
    cabeceras = {k.lower(): v for k, v in cabeceras.items()}
    assert cabeceras["content-type"] == "application/json"
    assert cabeceras["anthropic-version"] == "2023-06-01"
    assert cabeceras["x-api-key"] == "clave"


def test_un_error_del_protocolo_es_un_error_del_servidor_con_su_mensaje(servidor):
    ns = espacio("api")
    servidor.respuestas.append((400, error_del_protocolo(
        "invalid_request_error", "max_tokens: debe ser un entero mayor que 0")))
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"](servidor.url, {"max_tokens": 0})
    assert (info.value.estado, info.value.motivo) == (
        400, "max_tokens: debe ser un entero mayor que 0")
    assert str(info.value) == ("el servidor del modelo ha respondido 400: max_tokens: debe ser "
                               "un entero mayor que 0")


def test_un_404_sin_el_formato_del_protocolo_da_su_cuerpo_o_su_razon(servidor):
    ns = espacio("api")
    servidor.respuestas += [(404, b"no hay nada en\n  /v1/messages"), (500, b"")]
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"](servidor.url, {})
    assert (info.value.estado, info.value.motivo) == (404, "no hay nada en /v1/messages")
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"](servidor.url, {})
    assert (info.value.estado, info.value.motivo) == (500, "Internal Server Error")


def test_una_respuesta_que_no_es_json_es_un_error_del_servidor(servidor):
    ns = espacio("api")
    servidor.respuestas.append((200, b"<!doctype html><p>hola</p>"))
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"](servidor.url, {})
    assert info.value.estado == 200
    assert info.value.motivo.startswith("la respuesta no es JSON: '<!doctype html>")


def test_si_nadie_escucha_el_error_no_tiene_estado():
    ns = espacio("api")
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"](f"http://127.0.0.1:{puerto_sin_nadie()}/v1/messages", {})
    assert info.value.estado is None
    assert "refused" in info.value.motivo.lower()
    assert str(info.value).startswith("no hay respuesta del modelo: ")


def test_si_nadie_responde_a_tiempo_el_error_no_tiene_estado(servidor):
    ns = espacio("api")
    servidor.espera = 1.0
    servidor.respuestas.append((200, respuesta([])))
    antes = time.monotonic()
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"](servidor.url, {}, espera=0.2)
    assert info.value.estado is None
    assert "timed out" in info.value.motivo
    assert time.monotonic() - antes < 1.0


class PyodideHttp:
    """What pyodide-http 0.2.2 makes of ``urllib.request.urlopen`` in the page: a response built
    from the XMLHttpRequest's bytes, with its status, also for 4xx and 5xx (never HTTPError);
    a network failure is a JavaScript error, not an OSError. ``patch_all`` is counted."""

    class JsException(Exception):
        pass

    def __init__(self, estado=200, cuerpo=b"{}", falla=None):
        self.estado, self.cuerpo, self.falla = estado, cuerpo, falla
        self.parcheado = 0
        self.pedidos = []

    def patch_all(self):
        self.parcheado += 1

    def urlopen(self, pedido, *args, **kwargs):
        self.pedidos.append(pedido)
        if self.falla is not None:
            raise self.falla

        class Enchufe:
            def __init__(self, datos):
                self.datos = datos

            def makefile(self, modo):
                return io.BytesIO(self.datos)

        datos = b"HTTP/1.1 " + str(self.estado).encode() + b"\ncontent-type: application/json\n\n"
        r = http.client.HTTPResponse(Enchufe(datos + self.cuerpo))
        r.begin()
        return r


@pytest.fixture
def en_la_pagina(monkeypatch):
    """sys.platform as in Pyodide, and a fake pyodide_http whose urlopen is urllib's once
    patch_all has run (as the real one does)."""
    def hacer(**opciones):
        falso = PyodideHttp(**opciones)
        modulo = types.ModuleType("pyodide_http")

        def patch_all():
            falso.patch_all()
            monkeypatch.setattr(urllib.request, "urlopen", falso.urlopen)
        modulo.patch_all = patch_all
        monkeypatch.setitem(sys.modules, "pyodide_http", modulo)
        monkeypatch.setattr(sys, "platform", "emscripten")
        return falso
    return hacer


def test_en_la_pagina_un_4xx_llega_como_respuesta_y_es_un_error_del_servidor(en_la_pagina):
    falso = en_la_pagina(estado=404, cuerpo=json.dumps(error_del_protocolo(
        "not_found_error", "no existe la ruta /v1/mesages")).encode())
    ns = espacio("api")
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"]("http://sitio/modelo/v1/messages", {"a": 1})
    assert (info.value.estado, info.value.motivo) == (404, "no existe la ruta /v1/mesages")
    [pedido] = falso.pedidos
    assert (pedido.get_method(), pedido.full_url, json.loads(pedido.data)) == (
        "POST", "http://sitio/modelo/v1/messages", {"a": 1})


def test_en_la_pagina_se_parchea_urllib_una_vez_y_al_enviar(en_la_pagina):
    falso = en_la_pagina(cuerpo=json.dumps(respuesta([])).encode())
    ns = espacio("api")
    assert falso.parcheado == 0  # loading api.py does not touch urllib
    assert ns["enviar"]("http://sitio/modelo/v1/messages", {}) == respuesta([])
    assert ns["enviar"]("http://sitio/modelo/v1/messages", {}) == respuesta([])
    assert falso.parcheado == 1


def test_en_la_pagina_un_fallo_de_red_es_un_error_del_servidor_sin_estado(en_la_pagina):
    en_la_pagina(falla=PyodideHttp.JsException("NetworkError: Failed to execute 'send'"))
    ns = espacio("api")
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["enviar"]("http://sitio/modelo/v1/messages", {})
    assert (info.value.estado, info.value.motivo) == (None, "NetworkError: Failed to execute 'send'")


@pytest.mark.parametrize("plataforma", ["linux", "emscripten"])
def test_enviar_no_se_traga_una_interrupcion(monkeypatch, en_la_pagina, plataforma):
    en_la_pagina(falla=KeyboardInterrupt())
    monkeypatch.setattr(sys, "platform", plataforma)
    ns = espacio("api")
    if plataforma != "emscripten":
        monkeypatch.setattr(urllib.request, "urlopen", PyodideHttp(falla=KeyboardInterrupt()).urlopen)
    with pytest.raises(KeyboardInterrupt):
        ns["enviar"]("http://sitio/modelo/v1/messages", {})


def test_fuera_de_la_pagina_un_error_que_no_es_de_red_sale_tal_cual(monkeypatch):
    ns = espacio("api")
    monkeypatch.setattr(urllib.request, "urlopen", PyodideHttp(falla=ValueError("otro")).urlopen)
    with pytest.raises(ValueError, match="otro"):
        ns["enviar"]("http://127.0.0.1:1/v1/messages", {})


def test_url_del_modelo_fuera_y_dentro_de_la_pagina(monkeypatch):
    ns = espacio("api")
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["url_del_modelo"]()
    assert info.value.estado is None
    assert "fuera de la página no hay modelo del curso: pasa url=" in info.value.motivo
    trabajador = types.ModuleType("trabajador")
    trabajador.url_del_modelo = lambda: "https://sitio/curso/modelo/v1/messages"
    monkeypatch.setitem(sys.modules, "trabajador", trabajador)
    assert ns["url_del_modelo"]() == "https://sitio/curso/modelo/v1/messages"

    def sin_servicio():
        raise RuntimeError("el service worker del curso aún no controla esta página: recárgala")

    trabajador.url_del_modelo = sin_servicio
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        ns["url_del_modelo"]()
    assert (info.value.estado, info.value.motivo) == (None, "el service worker del curso aún no "
                                                            "controla esta página: recárgala")


def test_servidor_propio_fuera_y_dentro_de_la_pagina(monkeypatch):
    ns = espacio("api")
    assert ns["servidor_propio"]() is None
    trabajador = types.ModuleType("trabajador")
    trabajador.servidor_propio = lambda: "http://localhost:11434/v1/messages"
    monkeypatch.setitem(sys.modules, "trabajador", trabajador)
    assert ns["servidor_propio"]() == "http://localhost:11434/v1/messages"


def test_los_errores_se_copian_y_se_dicen_en_castellano():
    ns = espacio("api")
    error = ns["ErrorDelServidor"](404, "no existe")
    copia_ = copy.deepcopy(error)  # what crosses the grader's wall is a deep copy
    assert (type(copia_), copia_.estado, copia_.motivo) == (type(error), 404, "no existe")
    cortada = ns["RespuestaCortada"]([{"type": "text", "text": "a"}], {"output_tokens": 5})
    assert copy.deepcopy(cortada).contenido == cortada.contenido
    assert str(cortada) == ("la respuesta se cortó al llegar a max_tokens (llegó 1 bloque): "
                            "sube max_tokens o pide una respuesta más corta")
    assert "llegaron 0 bloques" in str(ns["RespuestaCortada"]([], None))


# ------------------------------------------------------ ModeloAPI against the server

def dos_turnos(ns):
    """A two-turn M: a system prompt, a question, a call and its result."""
    return [
        ("sistema", ns["SISTEMA_BUCLE"]),
        ("usuario", "¿Qué hay en lista.txt?"),
        ("asistente", [ns["texto"]("Lo miro."), ns["llamada"]("t1", "leer", ruta="lista.txt")]),
        ("usuario", [ns["resultado"]("t1", "pan, leche, patatas")]),
    ]


def traduccion(ns, M, nombre="smollm2-135m", max_tokens=256):
    return {"model": nombre, "max_tokens": max_tokens, "system": ns["SISTEMA_BUCLE"],
            "messages": [{"role": "user", "content": M[1][1]},
                         {"role": "assistant", "content": M[2][1]},
                         {"role": "user", "content": M[3][1]}],
            "tools": ns["HERRAMIENTAS"]}


def test_el_adaptador_habla_con_un_servidor_de_verdad(servidor):
    ns = pagina()
    M = dos_turnos(ns)
    contenido = [{"type": "text", "text": "En lista.txt hay pan, leche y patatas."}]
    servidor.respuestas.append((200, respuesta(contenido, entrada=412, salida=11)))
    modelo = ns["ModeloAPI"](max_tokens=64, url=servidor.url, cabeceras={"x-api-key": "clave"})
    assert modelo.uso is None
    assert modelo(M, ns["HERRAMIENTAS"]) == contenido
    assert modelo.uso == {"input_tokens": 412, "output_tokens": 11, "cache_read_input_tokens": 0}
    [(_, ruta, cabeceras, cuerpo)] = servidor.peticiones
    assert ruta == "/v1/messages"
    assert {k.lower(): v for k, v in cabeceras.items()}["x-api-key"] == "clave"
    assert cuerpo == json.loads(json.dumps(traduccion(ns, M, max_tokens=64)))
    assert cuerpo == json.loads(json.dumps(modelo.peticion(M, ns["HERRAMIENTAS"])))
    assert M == dos_turnos(ns)


def test_el_adaptador_deja_salir_los_errores_del_servidor(servidor):
    ns = pagina()
    servidor.respuestas += [
        (400, error_del_protocolo("invalid_request_error", "messages: no puede estar vacío")),
        (404, error_del_protocolo("not_found_error", "modelo desconocido: grande")),
    ]
    modelo = ns["ModeloAPI"](url=servidor.url)
    for estado, motivo in [(400, "messages: no puede estar vacío"),
                           (404, "modelo desconocido: grande")]:
        with pytest.raises(ns["ErrorDelServidor"]) as info:
            modelo([("usuario", "hola")], [])
        assert (info.value.estado, info.value.motivo) == (estado, motivo)
    lejos = ns["ModeloAPI"](url=f"http://127.0.0.1:{puerto_sin_nadie()}/v1/messages")
    with pytest.raises(ns["ErrorDelServidor"]) as info:
        lejos([("usuario", "hola")], [])
    assert info.value.estado is None


def test_el_adaptador_no_devuelve_una_respuesta_cortada(servidor):
    ns = pagina()
    cortada = [{"type": "tool_use", "id": "toolu_1", "name": "escribir",
                "input": {"ruta": "lista.txt"}}]
    servidor.respuestas.append((200, respuesta(cortada, "max_tokens", salida=16)))
    modelo = ns["ModeloAPI"](max_tokens=16, url=servidor.url)
    with pytest.raises(ns["RespuestaCortada"]) as info:
        modelo(dos_turnos(ns), ns["HERRAMIENTAS"])
    assert info.value.contenido == cortada
    assert info.value.uso["output_tokens"] == 16


def test_sin_url_fuera_de_la_pagina_lo_dice_al_llamar_no_al_crearlo():
    ns = pagina()
    modelo = ns["ModeloAPI"]()  # creating it asks nothing
    with pytest.raises(ns["ErrorDelServidor"], match="fuera de la página no hay modelo del curso"):
        modelo([("usuario", "hola")], [])


# ---------------------------------------- the lesson's two tests, with the transport replaced


def test_la_traduccion_de_dos_turnos_con_el_transporte_cambiado():
    ns = pagina()
    enviadas = []

    def enviar(url, cuerpo, cabeceras=None):
        enviadas.append((url, cuerpo))
        return respuesta([ns["texto"]("Hecho.")])

    M = dos_turnos(ns)
    modelo = ns["ModeloAPI"](url="http://servidor/v1/messages", enviar=enviar)
    assert modelo(M, ns["HERRAMIENTAS"]) == [ns["texto"]("Hecho.")]
    assert enviadas == [("http://servidor/v1/messages", traduccion(ns, M))]
    assert enviadas[0][1]["messages"][2]["content"] is M[3][1]  # the same blocks, untouched


def test_la_respuesta_cortada_con_el_transporte_cambiado():
    ns = pagina()
    llegaron = [ns["texto"]("Voy a escribir")]
    modelo = ns["ModeloAPI"](url="http://servidor/v1/messages",
                             enviar=lambda url, cuerpo, cabeceras=None: respuesta(
                                 llegaron, "max_tokens"))
    with pytest.raises(ns["RespuestaCortada"]) as info:
        modelo(dos_turnos(ns), ns["HERRAMIENTAS"])
    assert info.value.contenido == llegaron


