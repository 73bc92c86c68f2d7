"""Una ejecución del agente con el modelo del curso, grabada (no la edites a mano).

La escribe «python -m tests.bench.grabar»: el agente de «El agente y sus pruebas», con el
ModeloAPI de «El bucle con un modelo real», contra el modelo que corre en la página, a
temperatura 0. Se carga después de guionizado.py:

    exec(open_url("runtime/guionizado.py").read())
    exec(open_url("runtime/grabacion.py").read())

y deja en tu espacio de nombres:

- GRABACION: el modelo (su fichero y su SHA-256), cada turno (segundos, tokens y respuesta),
  cómo terminó y todos los mensajes.
- INICIO_GRABADO: los mensajes de inicio de esa ejecución.
- guion_grabado(): su guion, para un ModeloGuionizado: lo que respondió el modelo en cada turno
  y lo que le devolvió el arnés.
"""

GRABACION = {'modelo': {'archivo': 'SmolLM2-135M-Instruct.Q8_0.gguf',
            'sha256': '0c1d3326cd9793cfb7296113c063dd5c24e2bd734b48ec1a3d01b7158eca9387',
            'temperatura': 0,
            'max_tokens': 256,
            'n_ctx': 2048},
 'navegador': 'Chromium 156 sin interfaz, aislada, en x86_64',
 'fecha': '2026-12-02',
 'sistema': 'Eres un asistente que ayuda a organizar la compra de casa. Tienes herramientas '
            'para listar, leer, escribir y buscar en los ficheros del usuario. Antes de '
            'cambiar un fichero, el arnés le pide permiso al usuario: si no lo da, no '
            'insistas. Al terminar, dile en una frase qué has hecho.',
 'pedido': 'Apunta en lista.txt lo que falta para la tortilla.',
 'turnos': [{'segundos': 4.05,
             'tokens_entrada': 22,
             'tokens_reusados': 505,
             'tokens_salida': 20,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_01',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 3.83,
             'tokens_entrada': 71,
             'tokens_reusados': 527,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_02',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 5.28,
             'tokens_entrada': 56,
             'tokens_reusados': 613,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_03',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 5.66,
             'tokens_entrada': 56,
             'tokens_reusados': 684,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_04',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 7.32,
             'tokens_entrada': 56,
             'tokens_reusados': 755,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_05',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 6.26,
             'tokens_entrada': 56,
             'tokens_reusados': 826,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_06',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 6.76,
             'tokens_entrada': 56,
             'tokens_reusados': 897,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_07',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 7.15,
             'tokens_entrada': 56,
             'tokens_reusados': 968,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_08',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 10.26,
             'tokens_entrada': 56,
             'tokens_reusados': 1039,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_09',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]},
            {'segundos': 10.38,
             'tokens_entrada': 56,
             'tokens_reusados': 1110,
             'tokens_salida': 16,
             'respuesta': [{'type': 'tool_use',
                            'id': 'toolu_10',
                            'name': 'listar',
                            'input': {'carpeta': 'lista.txt'}}]}],
 'final': {'como': 'tope', 'texto': None},
 'mensajes': [['sistema',
               'Eres un asistente que ayuda a organizar la compra de casa. Tienes herramientas '
               'para listar, leer, escribir y buscar en los ficheros del usuario. Antes de '
               'cambiar un fichero, el arnés le pide permiso al usuario: si no lo da, no '
               'insistas. Al terminar, dile en una frase qué has hecho.'],
              ['usuario', 'Apunta en lista.txt lo que falta para la tortilla.'],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_01',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_01',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_02',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_02',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_03',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_03',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_04',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_04',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_05',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_05',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_06',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_06',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_07',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_07',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_08',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_08',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_09',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_09',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]],
              ['asistente',
               [{'type': 'tool_use',
                 'id': 'toolu_10',
                 'name': 'listar',
                 'input': {'carpeta': 'lista.txt'}}]],
              ['usuario',
               [{'type': 'tool_result',
                 'tool_use_id': 'toolu_10',
                 'content': "'lista.txt' es un fichero, no una carpeta (para ver su contenido, "
                            'usa leer)',
                 'is_error': True}]]]}

INICIO_GRABADO = [("sistema", GRABACION["sistema"]), ("usuario", GRABACION["pedido"])]


def guion_grabado():
    """El guion de la ejecución grabada: cada respuesta del modelo, con las observaciones que
    el arnés añadió tras ella."""
    mensajes = [tuple(m) for m in GRABACION["mensajes"]][len(INICIO_GRABADO):]
    respuestas, observaciones = [], []
    for i, (rol, contenido) in enumerate(mensajes):
        if rol == "asistente":
            respuestas.append(contenido)
            siguiente = mensajes[i + 1] if i + 1 < len(mensajes) else None
            observaciones.append(siguiente[1] if siguiente and siguiente[0] == "usuario" else [])
    return guion_de(INICIO_GRABADO, respuestas, observaciones)
