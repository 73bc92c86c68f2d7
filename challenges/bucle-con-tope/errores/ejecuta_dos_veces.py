# Error: ejecuta las llamadas una vez para mostrarlas con print y otra para las observaciones.
# Cláusula: observaciones
# Falla: varias llamadas en una respuesta
# Mensaje: Pista: el resultado de v1 no es el esperado


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        print([ejecutar(ll, entorno) for ll in llamadas])
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
