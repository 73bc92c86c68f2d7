"""Las pruebas de «responder», escritas con el contrato anterior: usan ModeloGuionizado y texto,
del runtime, y Fallo, del calificador, sin importarlos (entonces ya estaban en su espacio)."""

A_ESCRIBIR = {"responder": ("modelo", "pregunta")}

PISTA = 'Llama al modelo con [("usuario", pregunta)] y devuelve el texto de su respuesta.'

PREGUNTA = "¿Qué tal?"
CASOS = {"devuelve su texto": "Bien.", "devuelve otro texto": "Muy bien."}


def caso(nombre):
    return {"pregunta": PREGUNTA, "texto": CASOS[nombre]}


def argumentos(nombre):
    return (ModeloGuionizado([[texto(CASOS[nombre])]]), PREGUNTA)


def _prueba(nombre):
    def prueba(envio):
        modelo, pregunta = argumentos(nombre)
        devuelto = envio.funcion("responder")(modelo, pregunta)
        if devuelto != CASOS[nombre]:
            raise Fallo(f"responder devolvió {devuelto!r}; esperaba {CASOS[nombre]!r}")
    return prueba


PRUEBAS = [(nombre, _prueba(nombre)) for nombre in CASOS]
